/**
 * The rich-text rule (upstream/contract/rich-text.ts), for the back office's loaders and actions. The rule lives in
 * the contract so that the upstream stores by the same function; it is read here, behind `.server`, so that no
 * browser module can import sanitize-html by mistake (Remix leaves `.server` modules out of the browser build).
 */
export { isBlankRichText, richTextToStore, sanitizeRichText } from "@contract/rich-text";
