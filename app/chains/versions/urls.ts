/** The chain page's address, and its versions' (the version view, `draft` or a number). */
export const chainUrl = (id: string) => `/chains/${encodeURIComponent(id)}`;
export const versionUrl = (id: string, version: "draft" | number) => `${chainUrl(id)}/versions/${version}`;
