import type { Statement } from "better-sqlite3";
import type { Drawing, Shape, VisioTemplate, WordTemplate } from "../../contract/templates";
import type { Db } from "../db";
import { CollectionStore, columns, type Stored } from "../lib/collection-store";
import type { StoredRecordFile } from "../lib/record-files";

/** Drops case-insensitive duplicates, first spelling wins. */
export function unique(values: readonly string[]): string[] {
  const seen = new Set<string>();
  return values.filter((t) => {
    const k = t.toLowerCase();
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** A record as stored: the answered item without its derived fields, files with their store keys. */
type StoredTemplate<T> = Omit<T, "contentUrl" | "modifiedAt" | "fileTemplate"> & { fileTemplate: StoredRecordFile | null };
export type StoredWord = StoredTemplate<WordTemplate>;
export type StoredVisio = StoredTemplate<VisioTemplate>;
export type StoredDrawing = StoredTemplate<Drawing>;
export type StoredShape = Omit<Shape, "thumbnailUrl"> & { svg: string };
const TEMPLATE_DATA = { ext: "", description: "", tags: [] as string[], fileTemplate: null };
const normalizeTags = <V extends { tags: string[] }>(values: V): V => ({ ...values, tags: unique(values.tags) });

/** One template table: name in its column (searched, sorted), the rest in `data`. */
class TemplateStore<T extends Stored & { tags: string[] }> extends CollectionStore<T> {
  constructor(db: Db, now: () => number, table: string, data: Record<string, unknown>) {
    super(db, now, {
      table,
      columns: { name: columns.text("name") } as never,
      data: data as never,
      search: ["name", "json_extract(data, '$.description')"],
      normalize: normalizeTags as never,
    });
  }
}

export class WordTemplatesStore extends TemplateStore<StoredWord> {
  constructor(db: Db, now: () => number) {
    super(db, now, "word_templates", { ...TEMPLATE_DATA, isPublic: false, isStyleMaster: false });
  }
}

export class VisioTemplatesStore extends TemplateStore<StoredVisio> {
  constructor(db: Db, now: () => number) {
    super(db, now, "visio_templates", { ...TEMPLATE_DATA, isPublic: false });
  }
}

export class DrawingsStore extends TemplateStore<StoredDrawing> {
  constructor(db: Db, now: () => number) {
    super(db, now, "drawings", { ...TEMPLATE_DATA, textTemplate: "" });
  }
}

/** Shapes: the masters of Visio templates (docs/decisions/shapes.md), `template_id` in its column. */
export class ShapesStore extends CollectionStore<StoredShape> {
  private readonly ofTemplate: Statement;
  private readonly eraseOfTemplate: Statement;

  constructor(db: Db, now: () => number) {
    super(db, now, {
      table: "shapes",
      columns: { name: columns.text("name"), templateId: columns.text("template_id") },
      data: { description: "", tags: [], master: "", templateName: "", svg: "" },
      search: ["name", "json_extract(data, '$.description')", "json_extract(data, '$.templateName')"],
      normalize: normalizeTags,
    });
    this.ofTemplate = db.prepare("select id from shapes where template_id = ?").pluck();
    this.eraseOfTemplate = db.prepare("delete from shapes where template_id = ?");
  }

  /** The shapes of one template. */
  ofTemplateId(templateId: string): StoredShape[] {
    return (this.ofTemplate.all(templateId) as string[]).map((id) => this.get(id)!);
  }

  /**
   * Makes the template's shapes its file's `masters`: a master already there (same NameU) keeps its id and edits
   * (name, description, tags) with the new thumbnail; new masters are added, masters gone are deleted.
   */
  replaceOfTemplate(
    template: { id: string; name: string },
    masters: readonly { master: string; name: string; svg: string }[],
    actor: string | null,
  ): void {
    this.db.transaction(() => {
      const existing = new Map(this.ofTemplateId(template.id).map((s) => [s.master, s]));
      const seen = new Set<string>();
      for (const m of masters) {
        if (seen.has(m.master)) continue;
        seen.add(m.master);
        const old = existing.get(m.master);
        if (old) this.update(old.id, { svg: m.svg, templateName: template.name }, actor);
        else {
          this.create(
            { name: m.name, description: "", tags: [], master: m.master, templateId: template.id, templateName: template.name, svg: m.svg },
            actor,
          );
        }
      }
      for (const [master, shape] of existing) if (!seen.has(master)) this.remove(shape.id);
    })();
  }

  /** Deletes the shapes of a deleted template. */
  removeOfTemplate(templateId: string): void {
    this.eraseOfTemplate.run(templateId);
  }
}
