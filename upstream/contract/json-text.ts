/**
 * JSON typed by a person (a model's config, an import string): parsed strictly, and when it is broken, said where —
 * "line 2, column 14: a value is expected" — which Node 20's JSON.parse does not say. jsonc-parser (VS Code's parser)
 * finds the place; comments and trailing commas are errors, as in JSON.
 */
import { parse, printParseErrorCode, type ParseError } from "jsonc-parser";

const PROBLEMS: Record<string, string> = {
  InvalidSymbol: "an unexpected character",
  InvalidNumberFormat: "a number is malformed",
  PropertyNameExpected: "a property name in double quotes is expected",
  ValueExpected: "a value is expected",
  ColonExpected: "a colon is expected",
  CommaExpected: "a comma is expected",
  CloseBraceExpected: "a closing } is expected",
  CloseBracketExpected: "a closing ] is expected",
  EndOfFileExpected: "nothing may follow the value",
  InvalidCommentToken: "comments are not allowed",
  UnexpectedEndOfComment: "a comment is not closed",
  UnexpectedEndOfString: "a string is not closed",
  UnexpectedEndOfNumber: "a number is not finished",
  InvalidUnicode: "a \\u escape is malformed",
  InvalidEscapeCharacter: "an escape is malformed",
  InvalidCharacter: "a control character in a string",
};

/** Where `offset` is in `text`, counted as an editor counts: line and column from 1. */
function position(text: string, offset: number) {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  return { line, column: offset - before.lastIndexOf("\n") };
}

export function parseJsonText(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  if (text.trim() === "") return { ok: false, message: "it is empty" };
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  if (!first) return { ok: true, value };
  const code = printParseErrorCode(first.error);
  const { line, column } = position(text, first.offset);
  return { ok: false, message: `line ${line}, column ${column}: ${PROBLEMS[code] ?? code}` };
}
