import { deliverWebhook, inngest } from '@/lib/events/inngest';
import { runLifecycle } from '@/lib/domain/lifecycle';

/** The room lifecycle (auto-end, empty rooms, reconciliation, retention) as an Inngest cron. */
export const roomLifecycle = inngest.createFunction(
  { id: 'room-lifecycle', triggers: [{ cron: '* * * * *' }] },
  async () => runLifecycle(),
);

/** Every Inngest function this app serves (app/api/inngest). */
export const inngestFunctions = [deliverWebhook, roomLifecycle];
