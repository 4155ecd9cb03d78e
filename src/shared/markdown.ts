// Markdown as the notes are written, rendered with raw HTML disabled: whatever a
// user or a model typed is shown as text, never as markup. markdown-it also refuses
// javascript:, vbscript: and data: links (except images) by default.
import MarkdownIt from "markdown-it";
import taskLists from "markdown-it-task-lists";

// "- [ ] task" is a checkbox, as people and models write a task list, not the text "[ ]".
// Each checkbox is labelled by its task (label: true), so a screen reader says what is ticked.
const md = new MarkdownIt({ html: false, linkify: true, breaks: false }).use(taskLists, { label: true });

// Links open outside the app, without handing it the opener.
const defaultLinkOpen =
  md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  tokens[idx].attrSet("rel", "noopener noreferrer nofollow");
  // A point's citation of a moment of its note: shown as a small time that seeks the player.
  if (/^\/notes\/[^/#\s]+#t=[0-9]+$/.test(tokens[idx].attrGet("href") ?? "")) tokens[idx].attrSet("class", "moment");
  return defaultLinkOpen(tokens, idx, options, env, self);
};

// A note's own headings sit under the page's section headings (h2): "# Agenda" becomes
// an h3, and every level below follows, down to h6.
md.core.ruler.push("demote_headings", (state) => {
  for (const token of state.tokens)
    if (token.type === "heading_open" || token.type === "heading_close")
      token.tag = `h${Math.min(6, Number(token.tag.slice(1)) + 2)}`;
});

/**
 * A task line's checkbox, where the page lets the reader tick it: the checkbox's HTML for
 * the task on this line of the source (0-based), or null to keep it as shown (disabled).
 */
export type TaskControl = (line: number, checked: boolean) => string | null;

const CHECKBOX = /^<input class="task-list-item-checkbox"( checked="")? disabled="" type="checkbox">$/;
md.core.ruler.push("task_controls", (state) => {
  const control = (state.env as { taskControl?: TaskControl }).taskControl;
  if (!control) return;
  for (const token of state.tokens) {
    if (token.type !== "inline" || !token.map || !token.children) continue;
    const box = token.children.find((c) => c.type === "html_inline" && CHECKBOX.test(c.content));
    if (!box) continue;
    const replaced = control(token.map[0], CHECKBOX.exec(box.content)![1] !== undefined);
    if (replaced !== null) box.content = replaced;
  }
});

export const renderMarkdown = (text: string, opts: { taskControl?: TaskControl } = {}): string =>
  md.render(text, { taskControl: opts.taskControl });
