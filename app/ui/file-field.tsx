import { getInputProps, type FieldMetadata } from "@conform-to/react";
import { useState, type ChangeEvent, type ReactNode } from "react";
import { FieldErrors, useFirstError } from "./fields";

/** "1.4 MB", "820 KB", "12 bytes". */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} ${bytes === 1 ? "byte" : "bytes"}`;
}

/** A record's current file as a field shows it: a download link with its name and size. */
export type CurrentFile = { name: string; size: number; href: string } | null;

const FILE_FIELD_TEXTS = {
  current: "Current file:",
  chosen: (name: string, size: string) => `Chosen: ${name} (${size})`,
  download: (name: string) => `Download ${name}`,
} as const;

/**
 * A file input of a conform form: works as a plain input without JavaScript; with it, the chosen file's name and size
 * show below (announced), and `onChosen` hears the file (e.g. to fill a name derived from it). The record's current
 * file, when there is one, is a download link.
 */
export function FileField({
  meta,
  label,
  accept,
  current,
  hint,
  disabled,
  onChosen,
}: {
  meta: FieldMetadata<File | undefined>;
  label: string;
  accept: string;
  current?: CurrentFile;
  hint?: ReactNode;
  disabled?: boolean;
  onChosen?: (file: File | null) => void;
}) {
  const [chosen, setChosen] = useState<{ name: string; size: number } | null>(null);
  const hintId = `${meta.id}-hint`;
  const { key, ...props } = getInputProps(meta, { type: "file", ariaDescribedBy: hint || current ? hintId : undefined });
  const first = useFirstError(meta.id, meta.errors);
  return (
    <div className="field file-field">
      <label htmlFor={meta.id}>{label}</label>
      <input
        key={key}
        {...props}
        accept={accept}
        disabled={disabled}
        autoFocus={first}
        onChange={(event: ChangeEvent<HTMLInputElement>) => {
          const file = event.currentTarget.files?.[0] ?? null;
          setChosen(file ? { name: file.name, size: file.size } : null);
          onChosen?.(file);
        }}
      />
      <p className="field-hint" aria-live="polite">
        {chosen ? FILE_FIELD_TEXTS.chosen(chosen.name, formatBytes(chosen.size)) : null}
      </p>
      {current || hint ? (
        <div id={hintId} className="field-hint">
          {current ? (
            <p>
              {FILE_FIELD_TEXTS.current}{" "}
              <a href={current.href} download aria-label={FILE_FIELD_TEXTS.download(current.name)}>
                {current.name}
              </a>{" "}
              <span className="muted">({formatBytes(current.size)})</span>
            </p>
          ) : null}
          {hint ? <p>{hint}</p> : null}
        </div>
      ) : null}
      <FieldErrors id={meta.errorId} errors={meta.errors} />
    </div>
  );
}
