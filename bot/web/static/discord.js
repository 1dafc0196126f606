// Inside Discord: the Embedded App SDK's authorize -> code -> POST /api/token
// (the server exchanges the code and checks the Activity instance) ->
// sdk.commands.authenticate (PROTOCOL.md "HTTP"). The SDK is loaded only in
// Discord mode, from the vendored, pinned copy (vendor/.../README.md).
import { postJSON } from "./http.js";

async function makeSdk(clientId) {
  // The browser tests stand in for Discord's client with an object of the same
  // shape, defined before this module runs; Discord never defines it.
  if (window.__CT_FAKE_SDK__) return window.__CT_FAKE_SDK__;
  const { DiscordSDK } = await import("./vendor/discord-embedded-app-sdk/index.mjs");
  return new DiscordSDK(clientId);
}

/** Log in through Discord: {session, user, sdk}. */
export async function discordLogin(config) {
  const sdk = await makeSdk(config.client_id);
  await sdk.ready();
  const { code } = await sdk.commands.authorize({
    client_id: config.client_id,
    response_type: "code",
    state: "",
    prompt: "none",
    scope: ["identify"],
  });
  const res = await postJSON("api/token", {
    code,
    instance_id: sdk.instanceId,
    guild_id: sdk.guildId,
    channel_id: sdk.channelId,
  });
  await sdk.commands.authenticate({ access_token: res.access_token });
  return { session: res.session, user: res.user, sdk };
}
