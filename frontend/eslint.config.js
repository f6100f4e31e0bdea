// ESLint of the front end (frontend/src: browser ES modules, bundled by build.mjs) and of its
// unit tests and scripts (Node).
import js from "@eslint/js";
import globals from "globals";

export default [
  {ignores: ["node_modules/"]},
  js.configs.recommended,
  {
    files: ["src/**/*.js"],
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
    // the unit tests (node --test) and the build scripts: Node's globals, the same rules
    files: ["test/**/*.js", "*.mjs", "*.js"],
    languageOptions: {ecmaVersion: 2022, sourceType: "module", globals: {...globals.node}},
  },
];
