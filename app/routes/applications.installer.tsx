import type { LoaderFunctionArgs } from "@remix-run/node";
import { installerDownload } from "~/application-crawler/crawler.server";

/** The Application Crawler's setup installer (applications.read), streamed from the upstream. */
export const loader = (args: LoaderFunctionArgs) => installerDownload(args);
