import { route, auth } from '@/lib/http/route';
import { chatHistory, sendChatMessage } from '@/lib/domain/chat';
import { chatHistoryQuery, chatHistoryResponse, chatMessageResponse, chatSendInput } from '@/lib/domain/chat.schemas';

// Participant token: the participant writes as itself, to its own room (or to one participant of it).
export const POST = route(
  {
    tag: 'Chat',
    summary: 'Send a chat message to the room or one participant (participant token; not in E2EE rooms)',
    auth: auth.participant,
    body: chatSendInput,
    status: 201,
    response: chatMessageResponse,
  },
  ({ auth, body }) => sendChatMessage(auth, body),
);

export const GET = route(
  {
    tag: 'Chat',
    summary: 'Read chat history since a cursor (participant token)',
    auth: auth.participant,
    query: chatHistoryQuery,
    response: chatHistoryResponse,
  },
  ({ auth, query }) => chatHistory(auth, query),
);
