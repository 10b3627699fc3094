/**
 * A content link's files at run time (spec 3 §3 "Content link … Accepted files: docx, vsdx, png, jpeg, jpg, svg"):
 * images go to the output as they are, an .svg gives its text, a .docx its text (the project's docx reader behind the
 * converters' package checks), a .vsdx its pages as images (LibreOffice → PDF → PNGs in the converters' one pool, each
 * a bounded child process). A file that cannot be read is the link's error with the §8 conversion text.
 */
import { ATTACHMENT_PAGES } from "../../contract/chains-constants";
import type { z } from "zod";
import type { ContentFile } from "../../contract/chains";
import { RUN_MESSAGES } from "../../contract/chain-runs";
import { CONVERTER_MESSAGES, pageImageName } from "../../contract/converters";
import { PoolBusy, type Converters } from "../converters";
import { TooManyPages } from "../converters/office";
import { decodeText, htmlToText } from "../converters/text";
import { RunFailure } from "./engine";

export type ContentImage = { name: string; type: string; base64: string };
/** What a run's content files use: the converters' service (mounted after the runs, so read when a run needs it). */
export type ContentFileDeps = { converters?: () => Converters; log?: (message: string) => void };

/** Runs one conversion; what goes wrong becomes the link's error (`failure`, the §8 text), the reason to the log. */
async function converting<T>(failure: string, signal: AbortSignal, log: ContentFileDeps["log"], work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (signal.aborted) throw new RunFailure(RUN_MESSAGES.cancelled, "cancelled");
    if (error instanceof PoolBusy) throw new RunFailure(CONVERTER_MESSAGES.busy);
    if (error instanceof TooManyPages) throw new RunFailure(CONVERTER_MESSAGES.tooManyPages(error.max));
    log?.(`chain runs: content file: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
    throw new RunFailure(failure);
  }
}

/** The text and images of a content link's files, in their order. Without `converters`, .docx and .vsdx are refused. */
export async function contentFiles(
  files: readonly z.infer<typeof ContentFile>[],
  deps: ContentFileDeps & { signal: AbortSignal },
): Promise<{ text: string; images: ContentImage[] }> {
  const texts: string[] = [];
  const images: ContentImage[] = [];
  for (const file of files) {
    const bytes = () => Buffer.from(file.base64, "base64");
    const converters = deps.converters?.();
    if (file.type === "png" || file.type === "jpg" || file.type === "jpeg") images.push({ name: file.name, type: file.type, base64: file.base64.replace(/\s+/g, "") });
    else if (file.type === "svg") {
      const decoded = decodeText(bytes());
      if (decoded === null) throw new RunFailure(RUN_MESSAGES.fileNotText(file.name));
      texts.push(await htmlToText(decoded));
    } else if (file.type === "docx" && converters) {
      const { text } = await converting(CONVERTER_MESSAGES.extractOffice, deps.signal, deps.log, () => converters.toText(bytes(), "content.docx"));
      texts.push(text);
    } else if (file.type === "vsdx" && converters) {
      const pages = await converting(CONVERTER_MESSAGES.convertOffice, deps.signal, deps.log, () =>
        converters.pageImages(bytes(), "content.vsdx", ATTACHMENT_PAGES, deps.signal),
      );
      images.push(...pages.map((png, i) => ({ name: pageImageName(file.name, i + 1), type: "png", base64: png.toString("base64") })));
    } else throw new RunFailure(RUN_MESSAGES.fileNotText(file.name));
  }
  return { text: texts.join("\n\n"), images };
}
