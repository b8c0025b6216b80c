import { mustExist } from '$lib/net/must-exist';
import type { PageLoad } from './$types';

export const load: PageLoad = async ({ fetch, params }) => {
  await mustExist(fetch, `/api/rooms/${encodeURIComponent(params.code)}`, 'ROOM_NOT_FOUND');
};
