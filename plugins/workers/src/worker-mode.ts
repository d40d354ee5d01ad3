/** set by `basin worker` before it boots the project: this process runs jobs, it does not send them */
export const workerMode = { active: false };
