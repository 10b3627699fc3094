import { Form, useNavigation } from "@remix-run/react";
import { FieldErrors, FormError } from "~/ui/fields";
import { useHydrated } from "~/ui/hydrated";
import type { UploadErrors } from "./crawler.server";
import { APPLICATION_CRAWLER } from "./texts";

const U = APPLICATION_CRAWLER.upload;

/** An administrator's upload of the installer (multipart: file and version); the errors come from the action. */
export function InstallerUpload({
  replacing,
  errors,
  version,
}: {
  replacing: boolean;
  errors: UploadErrors | undefined;
  version: string;
}) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const pending = navigation.state !== "idle" && navigation.formData?.get("intent") === "upload";
  const invalid = (e: string[] | undefined) => (e?.length ? true : undefined);
  return (
    <Form method="post" encType="multipart/form-data" className="form-card upload-card" aria-labelledby="upload-title">
      <h2 id="upload-title">{replacing ? U.replaceTitle : U.title}</h2>
      <div className="field">
        <label htmlFor="installer-file">{U.file}</label>
        <input
          id="installer-file"
          name="file"
          type="file"
          accept=".exe,.msi,.msix,.zip,.dmg,.pkg"
          aria-describedby="installer-file-hint installer-file-errors"
          aria-invalid={invalid(errors?.file)}
        />
        <p id="installer-file-hint" className="field-hint">
          {replacing ? `${U.fileHint} ${U.replaces}` : U.fileHint}
        </p>
        <FieldErrors id="installer-file-errors" errors={errors?.file} />
      </div>
      <div className="field">
        <label htmlFor="installer-version">{U.version}</label>
        <input
          id="installer-version"
          name="version"
          defaultValue={version}
          maxLength={40}
          autoComplete="off"
          aria-describedby="installer-version-hint installer-version-errors"
          aria-invalid={invalid(errors?.version)}
        />
        <p id="installer-version-hint" className="field-hint">
          {U.versionHint}
        </p>
        <FieldErrors id="installer-version-errors" errors={errors?.version} />
      </div>
      <FormError id="installer-form-errors" errors={errors?.form} />
      <div className="form-actions">
        <button type="submit" name="intent" value="upload" className="btn btn-primary" disabled={hydrated && pending}>
          {pending ? U.busy : U.submit}
        </button>
      </div>
    </Form>
  );
}
