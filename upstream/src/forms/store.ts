import { FORM_DEFAULTS, type Form, type FormType } from "../../contract/forms";
import type { Db } from "../db";
import { CollectionStore, columns } from "../lib/collection-store";
import type { StoredRecordFile } from "../lib/record-files";
import { unique } from "../templates/store";

/** A form as stored: files with their store keys, without the derived urls. */
export type StoredForm = Omit<Form, "formUrl" | "modelUrl" | "modifiedAt" | "formFile" | "modelFile"> & {
  formFile: StoredRecordFile | null;
  modelFile: StoredRecordFile | null;
};

/** Forms (spec 2 §3): the name in its column, the rest in `data`. */
export class FormsStore extends CollectionStore<StoredForm> {
  constructor(db: Db, now: () => number) {
    super(db, now, {
      table: "forms",
      columns: { name: columns.text("name") },
      // A stored form always has a type; docx only stands in for a damaged value.
      data: { ...FORM_DEFAULTS, type: "docx" as FormType },
      search: ["name", "json_extract(data, '$.description')"],
      normalize: (v) => ({ ...v, tags: unique(v.tags), clients: unique(v.clients), organizations: [...new Set(v.organizations)] }),
    });
  }
}

