import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: ["build/", ".cache/", "public/monaco/", "node_modules/", "data/", "test-results/", "playwright-report/", ".cache/", "bench/bare/build/", "bench/react-admin/dist/"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-console": "off",
    },
  },
  {
    // The shared widgets render in every row and on every page.
    files: ["app/ui/**/*.tsx"],
    rules: {
      // app/ui/attrs.ts: JSX that spreads props and adds others compiles to a literal V8 builds slowly.
      "no-restricted-syntax": [
        "error",
        {
          selector: "JSXOpeningElement:has(> JSXSpreadAttribute):has(> JSXAttribute[name.name!='key'])",
          message: "One spread, alone: merge the other props into it with attrs() from app/ui/attrs.ts.",
        },
        {
          selector: "JSXOpeningElement:has(> JSXSpreadAttribute ~ JSXSpreadAttribute)",
          message: "One spread, alone: merge the other props into it with attrs() from app/ui/attrs.ts.",
        },
        {
          // Children are props too: `<td {...x}>{cell}</td>` is `{ ...x, children: cell }`.
          selector: "JSXOpeningElement[selfClosing=false]:has(> JSXSpreadAttribute)",
          message: "One spread, alone: no children beside it; pass them in attrs() (app/ui/attrs.ts).",
        },
      ],
    },
  },
  {
    files: ["**/*.{js,mjs}"],
    languageOptions: { globals: { process: "readonly", console: "readonly" } },
  },
);
