/** The implementation of the preflight check. Not a published API: it may change any release. */
package dev.kubejobs.core.preflight.internal;
