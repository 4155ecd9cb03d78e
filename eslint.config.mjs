// Lint for what the types cannot catch: a promise nobody awaits (its failure lost, or a
// write racing the response) and values nobody uses. Formatting is Prettier's.
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "drizzle/**", "test-artifacts/**", ".bench-data/**", "**/*.d.ts"] },
  {
    files: ["src/**/*.{ts,tsx}", "src/ai/programs/*.{cjs,mjs}"],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { "@typescript-eslint": tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: "off" },
    rules: {
      "@typescript-eslint/no-floating-promises": ["error", { ignoreVoid: true }],
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true },
      ],
      "@typescript-eslint/no-unused-expressions": "error",
    },
  },
);
