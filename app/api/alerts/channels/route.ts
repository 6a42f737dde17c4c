// GET /api/alerts/channels – where alerts go (the webhook URL only by its last 4 characters) · PUT – change them
import { getDatabase } from "@/db/client";
import { AlertChannelsInput } from "@/lib/alerts/alert-channel-inputs";
import { getAlertChannelsView, saveAlertChannels } from "@/lib/alerts/alert-channels";
import { routeHandler } from "@/lib/http/route-handler";

export const GET = routeHandler({ roles: ["admin"] }, async () => ({ channels: await getAlertChannelsView(getDatabase()) }));

export const PUT = routeHandler({ roles: ["admin"], body: AlertChannelsInput }, async ({ user, body, clientAddress }) => ({
  channels: await saveAlertChannels(getDatabase(), { id: user.id, email: user.email, clientAddress }, body),
}));
