import { serve } from 'inngest/next';
import { inngest } from '@/lib/events/inngest';
import { inngestFunctions } from '@/lib/runtime/inngest-functions';

// Inngest calls this endpoint to run delivery functions (production runner).
export const { GET, POST, PUT } = serve({ client: inngest, functions: inngestFunctions });
