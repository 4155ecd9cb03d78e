// The answer to a form whose CSRF token is missing, stale or from another page.
import type { WebContext } from "./context.js";
import { MessagePage } from "./pages/sign-in.js";
import { render } from "./render.js";

export const formExpired = (c: WebContext) =>
  render(
    c,
    <MessagePage
      title="Form expired"
      message="The form had expired or did not come from this page; nothing was changed. Reload the page and try again."
      viewer={c.get("viewer")}
    />,
    403,
  );
