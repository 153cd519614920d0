/** Reading job statuses: {@link dev.kubejobs.core.status.JobStatusReader}. */
package dev.kubejobs.core.status;
