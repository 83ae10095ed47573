'use client';

import { createContext } from 'react';
import { en } from '@/lib/i18n/en';
import type { Messages } from '@/lib/i18n/messages';

/**
 * The texts of the language a hosted page speaks (chosen on the server: lib/i18n/languages.ts),
 * English outside a provider. Apart from I18nProvider, so that the texts' readers (useT) do not
 * import the provider's loaders.
 */
export const I18nContext = createContext<Messages>(en);
