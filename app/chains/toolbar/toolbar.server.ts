/**
 * The chain page's toolbar posts, handed to the version actions so each confirmation, refusal and toast is defined
 * once: 'Save new version' is the draft's activation (spec 3 §4.2 "save as version"), with the comment asked for.
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import type { Api } from "~/lib/upstream.server";
import { versionIntent } from "../versions/versions.server";

/** The toolbar's answer to a post it made, or null when the post is another part of the page's. */
export function toolbarAction(args: ActionFunctionArgs, api: Api, form: FormData) {
  return form.get("intent") === "saveVersion" ? versionIntent(args, api, "draft", form) : null;
}
