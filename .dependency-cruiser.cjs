// The floors of src/, lowest first: a module may import from its own floor and the
// floors below it, never from a floor above, and no import may close a cycle. Run in
// `npm test` (npm run lint:deps); docs/architecture.md draws them from these rules.
const FLOORS = [
  ["core"],
  ["net"],
  ["config"],
  ["shared"],
  ["db", "storage"],
  ["ai", "jobs", "webhooks", "calendars", "mail"],
  ["services"],
  ["pipeline"],
  ["http"],
  ["web", "mcp", "oauth", "backup"],
  ["server", "runtime"],
  ["cli"],
];

const pathOf = (names) => `^src/(${names.join("|")})($|/)`;

const upward = FLOORS.slice(0, -1).map((floor, i) => ({
  name: `no-upward-from-${floor.join("-").replace(/\\\./g, "")}`,
  comment: `${floor.join(", ")} may import only from ${FLOORS.slice(0, i + 1)
    .flat()
    .join(", ")}`,
  severity: "error",
  from: { path: pathOf(floor) },
  to: { path: pathOf(FLOORS.slice(i + 1).flat()), dependencyTypesNot: ["type-only"] },
}));

module.exports = {
  forbidden: [
    ...upward,
    ...FLOORS.slice(0, -1).map((floor, i) => ({
      name: `no-upward-types-from-${floor.join("-").replace(/\\\./g, "")}`,
      comment: "types follow the floors too: a lower floor does not name what a higher one defines",
      severity: "error",
      from: { path: pathOf(floor) },
      to: { path: pathOf(FLOORS.slice(i + 1).flat()), dependencyTypes: ["type-only"] },
    })),
    {
      name: "no-circular",
      comment: "modules that import each other, directly or through others, cannot be understood one at a time",
      severity: "error",
      from: { path: "^src/" },
      to: { circular: true },
    },
    {
      name: "not-to-unresolvable",
      severity: "error",
      from: { path: "^src/" },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^src/types/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".d.ts"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
