// Reading a posted form's fields: one text value, or every value of a repeated field.
type Form = Record<string, unknown>;

/** The field's text, or "" when it is missing or a file. */
export const textField = (f: Form, key: string): string => (typeof f[key] === "string" ? (f[key] as string) : "");

/** Every text value of a field that may repeat (checkboxes). */
export const textFields = (f: Form, key: string): string[] =>
  (Array.isArray(f[key]) ? (f[key] as unknown[]) : f[key] === undefined ? [] : [f[key]]).filter(
    (x): x is string => typeof x === "string",
  );
