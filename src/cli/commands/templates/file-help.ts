/** What a template file looks like, for the help of the verbs that read one. */
export const FILE_HELP = `
A template file is Markdown: front matter, the model's context, then one "## " heading per section
with the section's instructions under it (JSON with the API's fields works too):

  ---
  name: Design review
  description: For design crits
  language: en
  ---
  We build a mobile banking app.

  ## Designs shown
  Which screens were shown.

  ## Feedback
  What people liked and disliked.`;
