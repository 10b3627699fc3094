import { z } from "zod";
import { Audit, FIELD_MESSAGES, LIST_LIMITS, TEXT_LIMITS, boundedList, boundedText, limitText, pageOf } from "./common";
import { defineResource } from "./resource";

/** GET /api/organizations/user — id and name of every organization, for pickers. */
export const OrganizationOption = z.object({ id: z.string(), name: z.string() });
export type OrganizationOption = z.infer<typeof OrganizationOption>;
export const OrganizationOptions = z.array(OrganizationOption);

/** A reference to another record by id (spec 3 §3: `speechToTextService {id}`). */
export const IdRef = z.object({ id: z.string() });
/** An IdRef a client sends: a bounded id. */
const IdRefInput = z.object({ id: boundedText("Id", TEXT_LIMITS.id) });

/**
 * An organization (spec 1 §3, spec 3 §3). The speech-to-text and model fields belong to the AI administration work;
 * they are stored and answered here so that work only adds its screens.
 */
export const Organization = z
  .object({
    id: z.string(),
    name: z.string(),
    enableSpeechToText: z.boolean(),
    speechToTextService: IdRef.nullable(),
    speechPostProcessingModel: IdRef.nullable(),
    models: z.array(z.string()),
  })
  .merge(Audit);
export type Organization = z.infer<typeof Organization>;

/** GET /api/organizations/?q=&sort=&page=&pageSize= */
export const OrganizationPage = pageOf(Organization);
export type OrganizationPage = z.infer<typeof OrganizationPage>;

export const ORGANIZATION_MESSAGES = { nameRequired: FIELD_MESSAGES.nameRequired } as const;

const name = limitText(
  z.string({ required_error: ORGANIZATION_MESSAGES.nameRequired }).trim().min(1, ORGANIZATION_MESSAGES.nameRequired),
  "Name",
  TEXT_LIMITS.name,
);

/** POST /api/organizations/ */
export const OrganizationCreate = z.object({
  name,
  enableSpeechToText: z.boolean().optional(),
  speechToTextService: IdRefInput.nullable().optional(),
  speechPostProcessingModel: IdRefInput.nullable().optional(),
  models: boundedList(boundedText("Model id", TEXT_LIMITS.id), "models", LIST_LIMITS.models).optional(),
});
export type OrganizationCreate = z.input<typeof OrganizationCreate>;

/** PATCH /api/organizations/{id}: only the fields sent change. */
export const OrganizationUpdate = OrganizationCreate.partial();
export type OrganizationUpdate = z.input<typeof OrganizationUpdate>;

/**
 * /api/organizations (spec 3 §7): reading needs organizations.read, creating the exact `organizations` permission,
 * changing and deleting organizations.write.
 */
export const OrganizationsResource = defineResource({
  name: "organizations",
  path: "/api/organizations",
  item: Organization,
  create: OrganizationCreate,
  update: OrganizationUpdate,
  permissions: { read: "organizations.read", create: "organizations", write: "organizations" },
  notFound: "Organization not found.",
});
