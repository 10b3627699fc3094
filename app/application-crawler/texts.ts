import { INSTALLER_MESSAGES } from "@contract/application-crawler";
import { SAVE_TOASTS } from "~/lib/form-texts";

/**
 * The applications page (spec 2 §2: "A card for 'Application Crawler' with a download link to a setup installer";
 * §8's 'Update completed' / 'Update failed', 'Delete completed' / 'Delete failed'; docs/decisions/application-crawler.md).
 */
export const APPLICATION_CRAWLER = {
  title: "Applications",
  crawler: {
    title: "Application Crawler",
    about: "A desktop tool for the bulk upload of Word and Visio files to the back office.",
    download: "Download the setup installer",
    details: (version: string, size: string) => `Version ${version} · ${size}`,
    file: "File",
    checksum: "SHA-256",
    uploaded: (at: string, by: string | null) => `Uploaded ${at}${by ? ` by ${by}` : ""}.`,
    notAvailable: "The setup installer is not available yet.",
    askAdministrator: "An administrator uploads it on this page.",
  },
  upload: {
    title: "Upload the installer",
    replaceTitle: "Replace the installer",
    file: "Installer file",
    fileHint: "An .exe, .msi, .msix, .zip, .dmg or .pkg file of at most 50 MB.",
    replaces: "It replaces the current installer.",
    version: "Version",
    versionHint: "As the installer reports it, for example 2.4.1.",
    submit: "Upload",
    busy: "Uploading…",
  },
  delete: "Remove installer",
  confirmDelete: {
    title: "Remove the installer?",
    message: (name: string) => `“${name}” will no longer be offered for download. This action can't be undone.`,
    confirm: "Remove",
  },
  validation: INSTALLER_MESSAGES,
  toasts: {
    updated: SAVE_TOASTS.updated,
    updateFailed: SAVE_TOASTS.updateFailed,
    deleted: SAVE_TOASTS.deleted,
    deleteFailed: SAVE_TOASTS.deleteFailed,
  },
} as const;
