// ESLint of the web front end (src/emergo/web/static): browser ES modules, no build step.
import js from "@eslint/js";
import globals from "globals";

// Run from the repository root (npm run check does): with --config the base path is the cwd.
export default [
  {ignores: ["src/emergo/web/static/built/"]},
  js.configs.recommended,
  {
    files: ["src/emergo/web/static/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: {...globals.browser},
    },
    rules: {
      "no-unused-vars": ["error", {argsIgnorePattern: "^_", varsIgnorePattern: "^_"}],
      eqeqeq: "error",
      "no-var": "error",
      "prefer-const": "error",
      "no-eval": "error",
      "no-implied-eval": "error",
      "no-new-func": "error",
    },
  },
  {
    // the unit tests (node --test): Node's globals, the same rules
    files: ["tools/web-check/test/**/*.js", "tools/web-check/*.mjs"],
    languageOptions: {ecmaVersion: 2022, sourceType: "module", globals: {...globals.node}},
  },
];
