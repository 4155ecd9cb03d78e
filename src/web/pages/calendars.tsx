// Settings → Calendars: each person's own calendars (a secret ICS address or a CalDAV
// account), their last sync and error; and the "Coming up" list on the notes page.
import { Alert, Csrf, Layout, PostButton, Table } from "../components/layout.js";
import type { Viewer } from "../context.js";
import { formatDate } from "../format.js";

export interface CalendarView {
  id: string;
  kind: "ics" | "caldav";
  name: string;
  address: string;
  lastSyncAt: string | null;
  lastError: string | null;
  eventCount: number;
}

export function CalendarsPage(props: {
  viewer: Viewer;
  calendars: CalendarView[];
  notice?: string;
  error?: string;
  /** What was typed into the form before a refusal, to fill it again. */
  typed?: Record<string, string>;
}) {
  const zone = props.viewer.timeZone;
  const { viewer } = props;
  const typed = props.typed ?? {};
  const caldav = typed.kind === "caldav";
  return (
    <Layout title="Calendars" viewer={viewer} section="calendars">
      <h1>Calendars</h1>
      <p class="muted">
        Your calendars tell a note who was there: a meeting's title, attendees and link fill the note recorded for it,
        and your next meetings are listed above your notes with a Record button. They are yours alone: nobody else in
        the workspace sees them, admins included.
      </p>
      <Alert error={props.error} ok={props.notice} />
      <form method="post" action="/settings/calendars" class="panel">
        <h2>Connect a calendar</h2>
        <Csrf viewer={viewer} />
        <fieldset>
          <legend>Kind</legend>
          <label class="check">
            <input type="radio" name="kind" value="ics" checked={!caldav} /> A secret address in iCalendar format
            (Google, Outlook, iCloud and Fastmail publish one in each calendar's settings)
          </label>
          <label class="check">
            <input type="radio" name="kind" value="caldav" checked={caldav} /> A CalDAV account (Nextcloud, Radicale,
            Fastmail, iCloud with an app password)
          </label>
        </fieldset>
        <label for="calendar-url">Address</label>
        <input
          id="calendar-url"
          name="url"
          value={typed.url}
          type="text"
          inputmode="url"
          required
          maxlength={2000}
          placeholder="https://calendar.example.com/…/basic.ics"
        />
        <div class="row">
          <div class="grow">
            <label for="calendar-user">User name (CalDAV)</label>
            <input
              id="calendar-user"
              name="username"
              value={typed.username}
              type="text"
              autocomplete="off"
              maxlength={500}
            />
          </div>
          <div class="grow">
            <label for="calendar-password">Password (CalDAV; an app password)</label>
            <input id="calendar-password" name="password" type="password" autocomplete="off" maxlength={1000} />
          </div>
        </div>
        <button type="submit">Connect</button>
      </form>
      <h2>Your calendars</h2>
      {props.calendars.length === 0 ? (
        <p class="muted">None yet.</p>
      ) : (
        <Table columns={["Calendar", "Meetings", "Last read"]} actions>
          {props.calendars.map((c) => (
            <tr>
              <td>
                <strong>{c.name}</strong>
                <div class="small muted">
                  {c.kind === "ics" ? "iCalendar address" : "CalDAV"} · {c.address}
                </div>
                {c.lastError ? (
                  <div class="small error" role="alert">
                    The last sync failed: {c.lastError}
                  </div>
                ) : null}
              </td>
              <td>{c.eventCount}</td>
              <td>{c.lastSyncAt ? formatDate(c.lastSyncAt, zone) : "not yet"}</td>
              <td>
                <div class="actions">
                  <PostButton
                    viewer={viewer}
                    action={`/settings/calendars/${encodeURIComponent(c.id)}/sync`}
                    label="Sync now"
                    ariaLabel={`Sync now: ${c.name}`}
                  />
                  <PostButton
                    viewer={viewer}
                    action={`/settings/calendars/${encodeURIComponent(c.id)}/remove`}
                    label="Disconnect"
                    ariaLabel={`Disconnect ${c.name}`}
                    danger
                    confirm={`Disconnect ${c.name}? Notes keep the meetings they were made of.`}
                  />
                </div>
              </td>
            </tr>
          ))}
        </Table>
      )}
    </Layout>
  );
}
