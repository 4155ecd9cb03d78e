// Times in a person's zone: east and west of UTC, across a daylight-saving change, and
// a zone that does not exist refused rather than guessed.
import { describe, expect, it } from "vitest";
import { canonicalZone, dayInZone, formatInZone, formatWhen, zoneChoices } from "../../src/core/time-zone.js";

describe("times in a zone", () => {
  it("writes an instant east and west of UTC, the zone named", () => {
    const at = "2026-11-28T00:24:00Z";
    expect(formatInZone(at, "Europe/Berlin")).toBe("2026-11-28 01:24 GMT+1");
    expect(formatInZone(at, "America/Los_Angeles")).toBe("2026-11-27 16:24 PST");
    expect(formatInZone(at, "Asia/Tokyo")).toBe("2026-11-28 09:24 GMT+9");
    expect(formatInZone(at, "UTC")).toBe("2026-11-28 00:24 UTC");
    expect(dayInZone(at, "America/Los_Angeles")).toBe("2026-11-27");
  });

  it("follows the clocks across a daylight-saving change, both ways", () => {
    // Europe's clocks go forward at 01:00 UTC on 29 March 2026, and back on 25 October.
    expect(formatInZone("2026-03-29T00:30:00Z", "Europe/Berlin")).toBe("2026-03-29 01:30 GMT+1");
    expect(formatInZone("2026-03-29T01:30:00Z", "Europe/Berlin")).toBe("2026-03-29 03:30 GMT+2");
    expect(formatInZone("2026-10-25T00:30:00Z", "Europe/Berlin")).toBe("2026-10-25 02:30 GMT+2");
    expect(formatInZone("2026-10-25T01:30:00Z", "Europe/Berlin")).toBe("2026-10-25 02:30 GMT+1");
    // The United States' go forward on 8 March 2026.
    expect(formatInZone("2026-03-08T06:30:00Z", "America/New_York")).toBe("2026-03-08 01:30 EST");
    expect(formatInZone("2026-03-08T07:30:00Z", "America/New_York")).toBe("2026-03-08 03:30 EDT");
  });

  it("knows the zones a person may choose, by their canonical names, and no others", () => {
    expect(canonicalZone("europe/berlin")).toBe("Europe/Berlin");
    expect(canonicalZone("Mars/Olympus_Mons")).toBeNull();
    expect(canonicalZone("")).toBeNull();
    expect(canonicalZone("x".repeat(65))).toBeNull();
    expect(zoneChoices()[0]).toBe("UTC");
    expect(zoneChoices()).toContain("America/New_York");
    // An unknown zone writes UTC rather than failing a page.
    expect(formatInZone("2026-11-28T00:24:00Z", "Nowhere/Else")).toBe("2026-11-28 00:24 UTC");
  });

  it("says a meeting's time as people do, in the reader's zone against now: today, yesterday, this week, this year, before", () => {
    const now = Date.parse("2026-12-04T18:00:00Z"); // Friday
    expect(formatWhen("2026-12-04T09:05:00Z", "UTC", now)).toBe("Today 09:05");
    expect(formatWhen("2026-12-03T21:22:00Z", "UTC", now)).toBe("Yesterday 21:22");
    expect(formatWhen("2026-12-05T10:00:00Z", "UTC", now)).toBe("Tomorrow 10:00");
    expect(formatWhen("2026-11-30T14:00:00Z", "UTC", now)).toBe("Mon 30 Nov 14:00");
    expect(formatWhen("2026-11-20T14:00:00Z", "UTC", now)).toBe("Fri 20 Nov");
    expect(formatWhen("2025-11-30T14:00:00Z", "UTC", now)).toBe("30 Nov 2025");
    // The reader's day, not UTC's: 23:30 UTC on the 3rd is already the 4th in Berlin, and still the 3rd in Los Angeles.
    expect(formatWhen("2026-12-03T23:30:00Z", "Europe/Berlin", now)).toBe("Today 00:30");
    expect(formatWhen("2026-12-04T03:00:00Z", "America/Los_Angeles", now)).toBe("Yesterday 19:00");
  });
});
