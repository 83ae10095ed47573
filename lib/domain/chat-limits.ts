/** A chat message's length, at most. No imports: the hosted call UI's bundle reads it. */
export const CHAT_MAX_LENGTH = 2000;
