import { serve } from 'inngest/next';
import { inngest, deliverWebhook, roomLifecycle } from '@/lib/events/inngest';

// Inngest calls this endpoint to run delivery functions (production runner).
export const { GET, POST, PUT } = serve({ client: inngest, functions: [deliverWebhook, roomLifecycle] });
