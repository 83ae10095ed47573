import { z } from 'zod';

/**
 * API key permissions. A full key has all of them. tenant.read / tenant.manage are the spec's;
 * the rest split the surface by what an integrator would want to delegate.
 */
const PERMISSIONS = [
  'tenant.read',
  'tenant.manage',
  'rooms.read',
  'rooms.write',
  'calls.read',
  'calls.write',
  'media.read',
  'media.write',
] as const;
export type Permission = (typeof PERMISSIONS)[number];
export const permission = z.enum(PERMISSIONS);
export const ALL_PERMISSIONS: Permission[] = [...PERMISSIONS];
