import { route, auth } from '@/lib/http/route';
import { deleteChat, exportChat } from '@/lib/domain/chat';
import { chatDeletedResponse, chatExportQuery, chatExportResponse } from '@/lib/domain/chat.schemas';

export const GET = route(
  {
    tag: 'Chat',
    summary: "Export a room's chat (JSON)",
    auth: auth.tenant('rooms.read'),
    query: chatExportQuery,
    response: chatExportResponse,
  },
  ({ auth, params, query }) => exportChat(auth.tenant, params.id, query),
);

export const DELETE = route(
  { tag: 'Chat', summary: "Delete a room's chat", auth: auth.tenant('rooms.write'), response: chatDeletedResponse },
  ({ auth, params }) => deleteChat(auth.tenant, params.id),
);
