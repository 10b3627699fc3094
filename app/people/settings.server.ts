import { UserSetting, UserSettings, type SettingPut } from "@contract/settings";
import type { Api } from "~/lib/upstream.server";

const enc = encodeURIComponent;

/** The settings part of the upstream contract (spec 1 §7). */
export const settings = {
  list: (api: Api, owner: string) => api.get(UserSettings, `/api/settings/users/${enc(owner)}`),
  put: (api: Api, body: SettingPut) => api.put(UserSetting, `/api/settings/users/${enc(body.key)}`, body),
  remove: (api: Api, owner: string, key: string) =>
    api.send("DELETE", `/api/settings/${enc(key)}?owner=${enc(owner)}`),
};
