/**
 * POST /api/simulator/calls {from, to, digits?, forwards?, confirm?, voicemail_seconds?}: the sandbox
 * carrier places an inbound call to a company number and drives the product's voice webhooks as the
 * carrier would; answers {sid, status, log:[{at, step, detail}]}.
 */
import { useMutation } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import type { PlaceCallInput, PlaceCallResult } from '../types';

export function placeCall(input: PlaceCallInput): Promise<PlaceCallResult> {
  return http.post<PlaceCallResult>('/api/simulator/calls', input);
}

export function usePlaceCall() {
  return useMutation({ mutationFn: placeCall });
}
