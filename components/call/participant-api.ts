/**
 * The participant-token endpoints the call UI calls, typed with the server's own request and
 * response schemas (z.input of a body, z.output of a response). Type imports only: no server
 * code reaches the browser bundle.
 */
import type { z } from 'zod';
import type { chatHistoryResponse, chatMessageResponse, chatSendInput } from '@/lib/domain/chat.schemas';
import type {
  lockInput,
  meResponse,
  roomLockResponse,
  waitingPage,
  waitingParticipantResponse,
} from '@/lib/domain/me.schemas';
import type { admissionResponse, participantResponse } from '@/lib/domain/participants.schemas';
import type { pollPage, pollResponse, publicPollCreateInput, publicVoteInput } from '@/lib/domain/polls.schemas';
import type {
  publicAnswerInput,
  publicQuestionCreateInput,
  questionPage,
  questionResponse,
} from '@/lib/domain/questions.schemas';
import type { muteAllResponse, roomResponse } from '@/lib/domain/rooms.schemas';
import type {
  hostMoveInput,
  hostMuteInput,
  hostMuteResponse,
  hostRoleInput,
  rosterResponse,
  spotlightInput,
  spotlightResponse,
} from '@/lib/domain/host-actions.schemas';
import type { breakoutMoveResponse } from '@/lib/domain/breakouts.schemas';
import type { handInput, handResponse } from '@/lib/domain/hands.schemas';
import type { callCaptionsResponse, captionStatusResponse } from '@/lib/domain/captions.schemas';
import type {
  captionsSwitchInput,
  meetingResponse,
  ratingInput,
  ratingResponse,
  recordingSwitchInput,
} from '@/lib/domain/meeting-tools.schemas';
import type { recordingResponse } from '@/lib/domain/recordings.schemas';

/** The waiting page's own read (GET /rooms/{id}/participants/{participantId}/admission, with the admission secret). */
export type AdmissionResponse = z.output<typeof admissionResponse>;
export type MeResponse = z.output<typeof meResponse>;
export type PollResponse = z.output<typeof pollResponse>;
export type QuestionResponse = z.output<typeof questionResponse>;
export type WaitingParticipantResponse = z.output<typeof waitingParticipantResponse>;
/** The body of POST /polls/public, as the host's poll form builds it. */
export type PollCreateBody = z.input<typeof publicPollCreateInput>;
export type ChatMessageResponse = z.output<typeof chatMessageResponse>;
export type RosterResponse = z.output<typeof rosterResponse>;
export type MeetingResponse = z.output<typeof meetingResponse>;

/** An endpoint: what it answers and, if it takes one, its JSON body. */
interface Endpoint<Response extends z.ZodType, Body extends z.ZodType | null = null> {
  response: z.output<Response>;
  body: Body extends z.ZodType ? z.input<Body> : never;
}

/** By method, then path under /api/v1 (a query string where the UI sends one). */
interface Endpoints {
  GET: {
    '/me': Endpoint<typeof meResponse>;
    '/me/waiting': Endpoint<typeof waitingPage>;
    '/me/participants': Endpoint<typeof rosterResponse>;
    '/me/captions': Endpoint<typeof callCaptionsResponse>;
    '/me/meeting': Endpoint<typeof meetingResponse>;
    [path: `/polls/public?${string}`]: Endpoint<typeof pollPage>;
    [path: `/questions/public?${string}`]: Endpoint<typeof questionPage>;
    [path: `/chat/messages${string}`]: Endpoint<typeof chatHistoryResponse>;
  };
  POST: {
    '/me/mute-all': Endpoint<typeof muteAllResponse>;
    '/me/lock': Endpoint<typeof roomLockResponse, typeof lockInput>;
    [path: `/me/waiting/${string}/${'admit' | 'deny'}`]: Endpoint<typeof participantResponse>;
    [path: `/me/participants/${string}/mute`]: Endpoint<typeof hostMuteResponse, typeof hostMuteInput>;
    [path: `/me/participants/${string}/remove`]: Endpoint<typeof participantResponse>;
    [path: `/me/participants/${string}/role`]: Endpoint<typeof participantResponse, typeof hostRoleInput>;
    [path: `/me/participants/${string}/move`]: Endpoint<typeof breakoutMoveResponse, typeof hostMoveInput>;
    '/me/end': Endpoint<typeof roomResponse>;
    '/me/hand': Endpoint<typeof handResponse, typeof handInput>;
    [path: `/me/participants/${string}/lower-hand`]: Endpoint<typeof handResponse>;
    '/me/spotlight': Endpoint<typeof spotlightResponse, typeof spotlightInput>;
    '/me/recording': Endpoint<typeof recordingResponse, typeof recordingSwitchInput>;
    '/me/captions': Endpoint<typeof captionStatusResponse, typeof captionsSwitchInput>;
    '/me/rating': Endpoint<typeof ratingResponse, typeof ratingInput>;
    '/polls/public': Endpoint<typeof pollResponse, typeof publicPollCreateInput>;
    [path: `/polls/public/${string}/vote`]: Endpoint<typeof pollResponse, typeof publicVoteInput>;
    [path: `/polls/public/${string}/${'open' | 'close'}`]: Endpoint<typeof pollResponse>;
    '/questions/public': Endpoint<typeof questionResponse, typeof publicQuestionCreateInput>;
    // Marking answered without an answer sends no body.
    [path: `/questions/public/${string}/answer`]: {
      response: QuestionResponse;
      body: z.input<typeof publicAnswerInput> | undefined;
    };
    [path: `/questions/public/${string}/${'upvote' | 'dismiss'}`]: Endpoint<typeof questionResponse>;
    '/chat/messages': Endpoint<typeof chatMessageResponse, typeof chatSendInput>;
  };
}

type Method = keyof Endpoints;
type Path<M extends Method> = keyof Endpoints[M] & string;
type EndpointAt<M extends Method, P extends Path<M>> = Endpoints[M][P] extends {
  response: unknown;
  body: unknown;
}
  ? Endpoints[M][P]
  : never;

/** The body argument: none for an endpoint without one, optional where undefined is allowed. */
type BodyArgs<E extends { body: unknown }> = [E['body']] extends [never]
  ? []
  : undefined extends E['body']
    ? [body?: E['body']]
    : [body: E['body']];

/** Calls /api/v1{path} with the participant's own token; resolves to the endpoint's response, throws with the API's message. */
export type ParticipantApi = <M extends Method, P extends Path<M>>(
  method: M,
  path: P,
  ...body: BodyArgs<EndpointAt<M, P>>
) => Promise<EndpointAt<M, P>['response']>;
