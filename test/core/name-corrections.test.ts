import { describe, expect, it } from "vitest";
import { namesCorrected, withNamesCorrected } from "../../src/core/name-corrections.js";

describe("names corrected in a line", () => {
  it("are the capitalised words changed in place", () => {
    expect(namesCorrected("The menu from Jon Snow is ready.", "The menu from John Snow is ready.")).toEqual([
      ["Jon", "John"],
    ]);
    expect(namesCorrected("We use Open Shift now.", "We use OpenShift now.")).toEqual([]);
    expect(namesCorrected("Ask Sara and Tim.", "Ask Sarah and Tom.")).toEqual([
      ["Sara", "Sarah"],
      ["Tim", "Tom"],
    ]);
    // Lower-case words, and words added or taken away, are no renamed names.
    expect(namesCorrected("the test is on friday", "the text is on friday")).toEqual([]);
    expect(namesCorrected("Thank you Jon.", "Thank you.")).toEqual([]);
  });

  it("are written anew as whole words only", () => {
    expect(withNamesCorrected("Jon, Jonas and jon; (Jon)", [["Jon", "John"]])).toBe("John, Jonas and jon; (John)");
    expect(withNamesCorrected("a+b Jon", [["a+b", "x"]])).toBe("x Jon");
  });
});
