/**
 * Participants: who is in a room and how they got there. By what changes together:
 * roles (what a role may do), views (the API's shape), tokens (media credentials), seats (the seat
 * rule, and whether a token holder may go in), join (the one-statement join), waiting-room
 * (parking, admission, the waiting page's poll), manage (the API's reads and a host's actions).
 */
export * from '@/lib/domain/participants/join';
export * from '@/lib/domain/participants/manage';
export * from '@/lib/domain/participants/roles';
export * from '@/lib/domain/participants/seats';
export * from '@/lib/domain/participants/tokens';
export * from '@/lib/domain/participants/views';
export * from '@/lib/domain/participants/waiting-room';
