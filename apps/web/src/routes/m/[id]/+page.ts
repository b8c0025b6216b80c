import { mustExist } from '$lib/net/must-exist';
import type { PageLoad } from './$types';

export const load: PageLoad = async ({ fetch, params }) => {
  await mustExist(fetch, `/api/matches/${encodeURIComponent(params.id)}`, 'MATCH_NOT_FOUND');
};
