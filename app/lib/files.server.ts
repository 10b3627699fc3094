import { StoredFile } from "@contract/files";
import { streamDownload } from "./download.server";
import type { Api } from "./upstream.server";

const path = (id: string) => `/api/files/${encodeURIComponent(id)}`;

/**
 * Uploads kept on the server between steps (POST /api/files): a page uploads once and names the file by its id
 * afterwards (`{ fileId }`), in a hidden field and its URL, instead of posting the bytes again.
 */
export const files = {
  upload(api: Api, file: File) {
    const body = new FormData();
    body.set("file", file, file.name);
    return api.post(StoredFile, "/api/files", body);
  },
  /** The upload's bytes, streamed back to its owner (the upstream answers 404 to anyone else). */
  download: async (api: Api, id: string) => streamDownload(await api.raw("GET", path(id))),
  /** Best effort: an upload nobody can use any more (it also expires on its own). */
  discard: (api: Api, id: string) => api.send("DELETE", path(id)).catch(() => undefined),
};
