import type { LoaderFunctionArgs } from "@remix-run/node";
import { shapeThumbnailLoader } from "~/templates/templates.server";

/** A shape's SVG thumbnail (templates.read), drawn upstream from its Visio master's geometry. */
export async function loader(args: LoaderFunctionArgs) {
  return shapeThumbnailLoader(args);
}
