import type { ChainImage } from "@contract/chains";
import { ATTACHMENT_MESSAGES, ATTACHMENT_PAGES, CHAIN_LIMITS, CHAIN_MESSAGES, IMAGE_FILE_TYPES } from "@contract/chains-constants";
import { CONVERTER_LIMITS, CONVERTER_MESSAGES, PageImages, UPLOAD_ACCEPT, accepts, extensionOf } from "@contract/converters";
import { isUpstreamError, type Api } from "~/lib/upstream.server";

/** What one file uploaded onto a message gives: its images (one, or a page each), or why it was refused. */
export type Attachment = { images: ChainImage[] } | { error: string };

const KB = 1024;
const imageType = (name: string) => IMAGE_FILE_TYPES.find((t) => `.${t}` === extensionOf(name)) ?? null;

/** Whether a file uploaded onto a message is converted (an office file or PDF of the accepted list), not taken as it is. */
export const converted = (name: string) => accepts(UPLOAD_ACCEPT.images, name) && imageType(name) === null;

/**
 * One file uploaded onto a vision model's message (spec 3 §5 "Uploads: images accept .png, .jpeg, .jpg, .docx,
 * .pptx, .pptm, .vsdx, .pdf"): an image as it is (`CHAIN_LIMITS.imageBytes`); any other of the list turned into page
 * images by the upstream's converters (POST /api/converters/pages: LibreOffice and poppler as bounded child processes
 * in their one pool, never on this server's event loop), at most `ATTACHMENT_PAGES` pages of a file of at most the
 * converters' 20 MB, each page named "claims.pdf p. 2" and within a message image's bound. A wrong type, a failed
 * conversion (the §8 text), a full pool (its 503 text) or a page bound is the field's error; the draft is untouched.
 */
export async function readAttachment(api: Api, file: File): Promise<Attachment> {
  const name = file.name.slice(0, 255);
  if (!accepts(UPLOAD_ACCEPT.images, name)) return { error: CHAIN_MESSAGES.fileType(UPLOAD_ACCEPT.images.map((t) => t.slice(1))) };
  const type = imageType(name);
  if (type) {
    if (file.size > CHAIN_LIMITS.imageBytes) return { error: CHAIN_MESSAGES.fileTooLarge(Math.floor(CHAIN_LIMITS.imageBytes / KB)) };
    return { images: [{ name, type, base64: Buffer.from(await file.arrayBuffer()).toString("base64") }] };
  }
  if (file.size > CONVERTER_LIMITS.fileBytes) return { error: CONVERTER_MESSAGES.tooLarge };
  const body = new FormData();
  body.set("file", file, name);
  try {
    const { pages } = await api.post(PageImages, `/api/converters/pages?max=${ATTACHMENT_PAGES}`, body);
    const large = pages.find((p) => p.base64.length > CHAIN_LIMITS.imageBase64);
    if (large) return { error: ATTACHMENT_MESSAGES.pageTooLarge(large.name, Math.floor(CHAIN_LIMITS.imageBytes / KB)) };
    return { images: pages.map((p) => ({ name: p.name.slice(0, 255), type: p.type, base64: p.base64 })) };
  } catch (error) {
    // A refusal (400, 413) and a full pool (503) say why in the upstream's words; anything else is the §8 text.
    if (isUpstreamError(error) && (error.status < 500 || error.status === 503)) return { error: error.message };
    return { error: extensionOf(name) === ".pdf" ? CONVERTER_MESSAGES.convertMany : CONVERTER_MESSAGES.convertOffice };
  }
}
