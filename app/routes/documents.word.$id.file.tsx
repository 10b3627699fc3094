import type { LoaderFunctionArgs } from "@remix-run/node";
import { downloadTemplate } from "~/templates/templates.server";

/** The word template's file, streamed byte for byte (templates.read; 404 without it or without a file). */
export async function loader(args: LoaderFunctionArgs) {
  return downloadTemplate.word(args);
}
