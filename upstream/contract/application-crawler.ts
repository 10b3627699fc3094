import { z } from "zod";
import { limitText } from "./common";

/**
 * The Application Crawler's setup installer (spec 2 §2 /applications; docs/decisions/application-crawler.md). The
 * installer is not part of the product: an administrator uploads it with its version (`PUT` multipart, `file` and
 * `version`), from the applications page or a script, and everyone with applications.read downloads it.
 *
 * - GET    /api/application-crawler/installer       (applications.read) → InstallerAnswer
 * - GET    /api/application-crawler/installer/file  (applications.read) → the bytes (404 without an installer)
 * - PUT    /api/application-crawler/installer       (administration)    → InstallerAnswer, replacing any earlier one
 * - DELETE /api/application-crawler/installer       (administration)    → 204 (404 without an installer)
 */
export const INSTALLER_PATH = "/api/application-crawler/installer";

/** The largest installer: a desktop tool's setup is a few to some tens of MB (the page body is held in memory). */
export const MAX_INSTALLER_BYTES = 50 * 1024 * 1024;
const MAX_VERSION_LENGTH = 40;
/** A file name an installer may have: a Windows or macOS setup package, or an archive of one. */
export const INSTALLER_NAME = /\.(exe|msi|msix|zip|dmg|pkg)$/i;

export const INSTALLER_MESSAGES = {
  notFound: "No installer has been uploaded.",
  fileRequired: "Choose the installer file.",
  oneFile: "Send exactly one file part named file.",
  tooLarge: `The installer must be at most ${MAX_INSTALLER_BYTES / 1024 / 1024} MB.`,
  wrongType: "The installer must be an .exe, .msi, .msix, .zip, .dmg or .pkg file.",
  versionRequired: "Version is required",
  badVersion: "A version has letters, digits, dots, dashes, plus signs and underscores only (for example 2.4.1).",
  notMultipart: "Request body must be multipart/form-data",
} as const;

export const InstallerVersion = limitText(
  z.string().trim().min(1, INSTALLER_MESSAGES.versionRequired),
  "Version",
  MAX_VERSION_LENGTH,
).refine((v) => /^[0-9A-Za-z][0-9A-Za-z.+_-]*$/.test(v), INSTALLER_MESSAGES.badVersion);

const Installer = z.object({
  /** The uploaded file's name, as the download names it. */
  name: z.string(),
  version: z.string(),
  size: z.number().int().nonnegative(),
  /** SHA-256 of the bytes (hex), for checking a download. */
  sha256: z.string(),
  uploadedAt: z.string(),
  uploadedBy: z.string().nullable(),
});
type Installer = z.infer<typeof Installer>;

/** `installer` is null until an administrator uploads one. */
export const InstallerAnswer = z.object({ installer: Installer.nullable() });
export type InstallerAnswer = z.infer<typeof InstallerAnswer>;
