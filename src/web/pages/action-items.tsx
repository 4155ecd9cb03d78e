// Action items across the meetings: the viewer's own first, then everyone's open ones,
// each by its due date (overdue marked), each ticked done or open again by a button,
// and linked to the moment of the note it was said in.
import { html } from "hono/html";
import type { Viewer } from "../context.js";
import type { ActionItemDto } from "../../shared/schemas/action-items.js";
import { Layout } from "../components/layout.js";

function row(item: ActionItemDto, today: string, csrf: string) {
  const overdue = !item.done && item.due !== null && item.due < today;
  const due = item.due
    ? html`<span class="${overdue ? "overdue" : "muted"} small">${overdue ? "Overdue: " : "Due "}${item.due}</span>`
    : "";
  return html`<li class="action-item${item.done ? " done" : ""}"><form method="post" action="/action-items/${item.id}">
<input type="hidden" name="csrf" value="${csrf}" /><input type="hidden" name="back" value="/action-items" />
<input type="hidden" name="done" value="${item.done ? "" : "1"}" />
<button type="submit" class="secondary small" aria-label="${item.done ? "Reopen" : "Done"}: ${item.text}">${item.done ? "Reopen" : "Done"}</button></form>
<div><span class="task">${item.text}</span> ${item.owner ? html`<span class="small">· ${item.owner.name}</span>` : ""} ${due}
<div class="small"><a href="${item.url}">${item.noteTitle}</a></div></div></li>`;
}

function list(title: string, items: ActionItemDto[], today: string, csrf: string, empty: string) {
  return html`<section><h2>${title}</h2>${items.length ? html`<ul class="action-items">${items.map((i) => row(i, today, csrf))}</ul>` : html`<p class="muted">${empty}</p>`}</section>`;
}

export function ActionItemsPage(props: {
  viewer: Viewer;
  mine: ActionItemDto[];
  others: ActionItemDto[];
  done: ActionItemDto[];
  today: string;
}) {
  const { viewer } = props;
  return (
    <Layout title="Action items" viewer={viewer} section="actions">
      <h1>Action items</h1>
      <p class="muted">The tasks of the meetings you can read, the soonest due first.</p>
      {list("Yours", props.mine, props.today, viewer.csrf, "Nothing open is given to you.")}
      {list("Everyone's open items", props.others, props.today, viewer.csrf, "Nothing else is open.")}
      {list("Done lately", props.done, props.today, viewer.csrf, "Nothing is done yet.")}
    </Layout>
  );
}
