import { route, auth } from '@/lib/http/route';
import { providerBrandingView, updateProviderBranding } from '@/lib/domain/branding';
import { brandingInput, brandingResponse } from '@/lib/domain/branding.schemas';

// The provider's default branding: what its tenants' hosted call UI shows where they set none.
export const GET = route(
  {
    tag: 'Provider',
    summary: 'Read the default branding of its tenants’ call UI',
    auth: auth.provider,
    response: brandingResponse,
  },
  ({ auth }) => providerBrandingView(auth.provider),
);

export const PATCH = route(
  {
    tag: 'Provider',
    summary: 'Set the default branding of its tenants’ call UI',
    auth: auth.provider,
    body: brandingInput,
    response: brandingResponse,
  },
  ({ auth, body }) => updateProviderBranding(auth.provider, body),
);
