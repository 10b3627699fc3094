import type { LoaderFunctionArgs } from "@remix-run/node";
import { formFileLoader } from "~/forms/forms.server";

/** A form's form file or model file, streamed byte for byte (forms.read; 404 without it or without such a file). */
export async function loader(args: LoaderFunctionArgs) {
  return formFileLoader(args);
}
