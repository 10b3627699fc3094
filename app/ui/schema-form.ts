import { useForm, type DefaultValue, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { useNavigation } from "@remix-run/react";
import type { FormEvent } from "react";
import type { z } from "zod";
import { lastResultOf } from "./editor";

/**
 * A conform form on `schema` (the one the action parses with), validated as every form here is: a field on blur, then
 * as the user types; `actionData` (the action's reply) shown unless a new post is under way.
 */
export function useSchemaForm<S extends z.ZodType<Record<string, unknown>, z.ZodTypeDef, Record<string, unknown>>>(
  schema: S,
  options: {
    id: string;
    actionData: unknown;
    defaultValue?: DefaultValue<z.input<S>>;
    /** Called once the form is valid, before it posts: `event.preventDefault()` to send it another way (uploads). */
    onValidSubmit?: (event: FormEvent<HTMLFormElement>, formData: FormData) => void;
  },
) {
  // Only while the post is being answered: once it is, the page's data reloads ("loading") with its reply already
  // shown (the toast); hiding the reply until that ends would mark what was typed meanwhile with the reply's errors.
  const pending = useNavigation().state === "submitting";
  const lastResult: SubmissionResult<string[]> | undefined = lastResultOf(options.actionData, pending);
  return useForm<z.input<S>, z.output<S>>({
    id: options.id,
    lastResult,
    constraint: getZodConstraint(schema),
    defaultValue: options.defaultValue,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    onSubmit: options.onValidSubmit ? (event, { formData }) => options.onValidSubmit!(event, formData) : undefined,
  });
}
