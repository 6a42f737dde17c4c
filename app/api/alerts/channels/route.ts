// GET /api/alerts/channels – where alerts go (the webhook URL only by its last 4 characters) · PUT – change them
import { getDatabase } from "@/db/client";
import { AlertChannelsInput } from "@/lib/alerts/alert-channel-inputs";
import { getAlertChannelsView, saveAlertChannels } from "@/lib/alerts/alert-channels";
import { routeHandler } from "@/lib/http/route-handler";

export const GET = routeHandler({ action: "alerts.manage" }, async ({ actor }) => ({
  channels: await getAlertChannelsView({ db: getDatabase(), actor }),
}));

export const PUT = routeHandler({ action: "alerts.manage", body: AlertChannelsInput }, async ({ actor, body }) => ({
  channels: await saveAlertChannels({ db: getDatabase(), actor }, body),
}));
