/**
 * Implementation shared by the operations of kubejobs. Not a published API: anything here may
 * change without notice.
 */
package dev.kubejobs.core.internal;
