/*
 * Copyright 2026 The kubejobs Authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package dev.kubejobs.testkit;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import io.kubernetes.client.openapi.ApiClient;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A fake Kubernetes API server on a local port that any client-java {@link ApiClient} can talk to,
 * with its objects in memory: custom resources that a test registers and the namespaced basics of
 * every cluster (pods, events, services, configmaps, secrets, serviceaccounts, networkpolicies),
 * with resourceVersions, optimistic concurrency, finalizers, owner-reference garbage collection
 * (background, orphan and foreground), merge and JSON patches, the status subresource, label
 * selectors, paging, pod logs, discovery, RBAC with self-subject access reviews, injected {@link
 * Fault faults} and a {@link RequestJournal}.
 *
 * <pre>{@code
 * try (FakeKubernetesApiServer server = FakeKubernetesApiServer.start()) {
 *   server.registerResource(new ResourceType("spark.apache.org", "v1", "sparkapplications",
 *       "SparkApplication"));
 *   ApiClient client = server.newClient();
 *   // ... drive the code under test with client, then assert on server.store()
 * }
 * }</pre>
 *
 * <p>What it models and how it answers is described per behaviour in the testkit's README section
 * and its tests; in short: every namespace exists (unless {@link #requireNamespaces(String...)}),
 * deletion is immediate unless finalizers hold the object (pods too, unless a {@link FakeKubelet}
 * runs their node), a DELETE that removes a custom resource answers 200 with a {@code Status}
 * {@code Success} (a pod: the object), one that finalizers hold answers 200 with the object and its
 * {@code deletionTimestamp}, every custom resource has a status subresource, watches ({@code
 * ?watch=true}) stream the store's changes as the real watch cache does, and server-side apply and
 * dry runs are not supported.
 *
 * <p>Thread safe: any number of clients and threads may use one server; all state sits behind one
 * lock.
 */
public final class FakeKubernetesApiServer implements AutoCloseable {

  /**
   * The request header by which a {@linkplain #newClient(String) client with an id} identifies
   * itself, so that {@linkplain Fault.Builder#forClient(String) faults} and {@linkplain
   * Hold.Spec#forClient(String) holds} can be scoped to it and the {@link RequestJournal} can tell
   * clients apart.
   */
  public static final String CLIENT_ID_HEADER = "X-Kubejobs-Testkit-Client";

  private static final Logger LOG = LoggerFactory.getLogger(FakeKubernetesApiServer.class);

  /**
   * kube-apiserver's {@code IdleTimeout} ({@code k8s.io/apiserver/pkg/server/secure_serving.go}).
   */
  private static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(90);

  /**
   * How often an open watch with nothing to send checks whether its client hung up. A real server
   * learns it at once from the request's context; 50 ms keeps a test's leak check ({@code
   * openWatches() == 0}) short while costing one non-blocking read per watch per check.
   */
  private static final Duration DEFAULT_HANG_UP_CHECK = Duration.ofMillis(50);

  private final Clock clock;
  private final InMemoryStore store;
  private final Faults faults = new Faults();
  private final Holds holds = new Holds();
  private final RequestJournal journal = new RequestJournal();
  private final Rbac rbac = new Rbac();
  private final WireMockServer wireMock;
  private final ApiHandler handler;
  private final WatchFilter watches;
  private final ConnectionCounter connections = new ConnectionCounter();

  private FakeKubernetesApiServer(Builder builder) {
    this.clock = builder.clock;
    this.store = new InMemoryStore(clock);
    this.handler = new ApiHandler(store, rbac);
    this.watches = new WatchFilter(handler, store, faults, journal, clock, builder.hangUpCheck);
    WireMockConfiguration config =
        WireMockConfiguration.options()
            .bindAddress("127.0.0.1")
            .containerThreads(builder.threads)
            .jettyIdleTimeout(builder.idleTimeout.toMillis())
            .networkTrafficListener(connections)
            .jettyStopTimeout(0L)
            .notifier(new WireMockLogging())
            .disableRequestJournal()
            .stubRequestLoggingDisabled(true)
            .gzipDisabled(true)
            .templatingEnabled(false)
            .extensionScanningEnabled(false)
            .httpServerFactory(watches.serverFactory())
            .extensions(new WireMockBridge(handler, faults, holds, journal, clock));
    if (builder.port == 0) {
      config.dynamicPort();
    } else {
      config.port(builder.port);
    }
    this.wireMock = new WireMockServer(config);
    wireMock.start();
    wireMock.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(200)));
    LOG.debug("Fake Kubernetes API server started at '{}'", url());
  }

  /**
   * Returns a builder for a server with a custom clock or port.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Starts a server on a free port with the system UTC clock.
   *
   * @return the started server; close it when done
   */
  public static FakeKubernetesApiServer start() {
    return builder().build();
  }

  /**
   * Returns the server's base URL, {@code http://localhost:PORT}.
   *
   * @return the URL without a trailing slash
   */
  public String url() {
    return "http://localhost:" + port();
  }

  /**
   * Returns the local port the server listens on.
   *
   * @return the port
   */
  public int port() {
    return wireMock.port();
  }

  /**
   * Creates a client-java {@link ApiClient} for this server: base path {@link #url()}, no
   * authentication, a read timeout of 10 seconds and OkHttp's other defaults (including {@code
   * retryOnConnectionFailure}, which silently re-sends a request whose connection was reset; derive
   * a client with {@code client.getHttpClient().newBuilder().retryOnConnectionFailure(false)} to
   * see such failures).
   *
   * @return a new client
   */
  public ApiClient newClient() {
    ApiClient client = new ApiClient();
    client.setBasePath(url());
    client.setReadTimeout(10_000);
    return client;
  }

  /**
   * Creates a client like {@link #newClient()} whose every request carries this id in the {@link
   * #CLIENT_ID_HEADER} header (added by an OkHttp interceptor on the client's own HTTP client), so
   * a test with two scheduler nodes on one server can {@linkplain Fault.Builder#forClient(String)
   * fail} or {@linkplain Hold.Spec#forClient(String) hold} one node's requests only, and read
   * {@link RecordedRequest#clientId()} in the journal. A client derived with {@code
   * client.getHttpClient().newBuilder()} keeps the id.
   *
   * @param clientId a non-empty id made of letters, digits, {@code -}, {@code _} and {@code .}, for
   *     example {@code "node-a"}
   * @return a new client
   * @throws IllegalArgumentException if the id is empty or has other characters
   */
  public ApiClient newClient(String clientId) {
    Objects.requireNonNull(clientId, "clientId");
    if (!clientId.matches("[A-Za-z0-9._-]+")) {
      throw new IllegalArgumentException(
          "clientId must be non-empty letters, digits, '-', '_' or '.', but was '"
              + clientId
              + "'");
    }
    ApiClient client = newClient();
    client.setHttpClient(
        client
            .getHttpClient()
            .newBuilder()
            .addInterceptor(
                chain ->
                    chain.proceed(
                        chain.request().newBuilder().header(CLIENT_ID_HEADER, clientId).build()))
            .build());
    return client;
  }

  /**
   * Holds the first request matching this spec inside the server until {@link Hold#release()}, to
   * interleave two clients' steps deterministically; see {@link Hold}.
   *
   * <pre>{@code
   * Hold h = server.hold(Hold.on("DELETE", "/apis/.+/sparkapplications/.+").forClient("node-a"));
   * }</pre>
   *
   * @param spec which request to hold and when ({@linkplain Hold.Spec#beforeApplying() before
   *     applying} by default)
   * @return the hold, to wait for the request's arrival and release it
   */
  public Hold hold(Hold.Spec spec) {
    return holds.add(Objects.requireNonNull(spec, "spec").build());
  }

  /**
   * Serves a namespaced custom resource type from now on (discovery and CRUD); registering the same
   * type again does nothing. {@link ResourceType#POD} is always served.
   *
   * @param type the resource type
   * @return this server
   * @throws IllegalArgumentException if another kind is registered under the same group, version
   *     and plural
   */
  public FakeKubernetesApiServer registerResource(ResourceType type) {
    store.register(Objects.requireNonNull(type, "type"));
    return this;
  }

  /**
   * Serves every served version of the custom resource definitions in this YAML (one or more
   * documents; other kinds are skipped) and, from now on, prunes and validates objects written
   * through the API against each version's {@code openAPIV3Schema} as the real server does for
   * structural schemas: unknown fields are dropped and named in a {@code Warning} header ({@code
   * 299 - "unknown field \"spec.x\""}), and a wrong {@code type}, a value outside an {@code enum}
   * or a missing {@code required} field answers 422 {@code Invalid} with one {@code details.causes}
   * entry per field. Formats, patterns, bounds and CEL rules are not checked. {@link #store()}
   * writes are not validated.
   *
   * <pre>{@code
   * server.registerCrd(Files.readString(Path.of("crds/sparkapplications.yaml")));
   * }</pre>
   *
   * @param yaml the CRD manifest(s), as {@code kubectl apply} takes them
   * @return the resource types now served, one per served version
   * @throws IllegalArgumentException if the YAML holds no {@code CustomResourceDefinition} or one
   *     without group, names or versions
   */
  public List<ResourceType> registerCrd(String yaml) {
    List<ResourceType> types = new ArrayList<>();
    org.yaml.snakeyaml.Yaml parser =
        new org.yaml.snakeyaml.Yaml(
            new org.yaml.snakeyaml.constructor.SafeConstructor(crdLoaderOptions()));
    com.google.gson.Gson gson = new com.google.gson.Gson();
    for (Object doc : parser.loadAll(Objects.requireNonNull(yaml, "yaml"))) {
      if (!(doc instanceof java.util.Map<?, ?>)) {
        continue;
      }
      com.google.gson.JsonObject crd = gson.toJsonTree(doc).getAsJsonObject();
      if (!"CustomResourceDefinition".equals(text(crd, "kind"))) {
        continue;
      }
      com.google.gson.JsonObject spec = crd.getAsJsonObject("spec");
      com.google.gson.JsonObject names = spec == null ? null : spec.getAsJsonObject("names");
      if (spec == null || names == null || !spec.has("versions") || text(spec, "group") == null) {
        throw new IllegalArgumentException(
            "a CustomResourceDefinition needs spec.group, spec.names and spec.versions, but "
                + text(crd.getAsJsonObject("metadata"), "name")
                + " lacks one");
      }
      for (com.google.gson.JsonElement v : spec.getAsJsonArray("versions")) {
        com.google.gson.JsonObject version = v.getAsJsonObject();
        if (version.has("served") && !version.get("served").getAsBoolean()) {
          continue;
        }
        ResourceType type =
            new ResourceType(
                text(spec, "group"),
                text(version, "name"),
                text(names, "plural"),
                text(names, "kind"));
        registerResource(type);
        handler.names(
            type,
            new ApiHandler.Names(textList(names, "shortNames"), textList(names, "categories")));
        handler.tables().columns(type, printerColumns(version));
        if (version.get("schema") instanceof com.google.gson.JsonObject schema
            && schema.get("openAPIV3Schema") instanceof com.google.gson.JsonObject openApi) {
          handler.schema(type, StructuralSchema.of(openApi));
          handler.openApi().schema(type, openApi);
        }
        types.add(type);
      }
    }
    if (types.isEmpty()) {
      throw new IllegalArgumentException(
          "the YAML holds no CustomResourceDefinition with a served version");
    }
    return List.copyOf(types);
  }

  private static org.yaml.snakeyaml.LoaderOptions crdLoaderOptions() {
    org.yaml.snakeyaml.LoaderOptions options = new org.yaml.snakeyaml.LoaderOptions();
    options.setCodePointLimit(64 * 1024 * 1024);
    return options;
  }

  /** A CRD version's {@code additionalPrinterColumns}. */
  private static List<Tables.Column> printerColumns(com.google.gson.JsonObject version) {
    List<Tables.Column> columns = new ArrayList<>();
    if (version.get("additionalPrinterColumns") instanceof com.google.gson.JsonArray defs) {
      for (com.google.gson.JsonElement e : defs) {
        com.google.gson.JsonObject c = e.getAsJsonObject();
        String path = text(c, "jsonPath");
        columns.add(
            new Tables.Column(
                text(c, "name"),
                text(c, "type"),
                text(c, "format") == null ? "" : text(c, "format"),
                text(c, "description") == null
                    ? "Custom resource definition column (in JSONPath format): " + path
                    : text(c, "description"),
                c.has("priority") ? c.get("priority").getAsInt() : 0,
                path));
      }
    }
    return columns;
  }

  private static List<String> textList(com.google.gson.JsonObject o, String key) {
    List<String> result = new ArrayList<>();
    if (o.get(key) instanceof com.google.gson.JsonArray values) {
      for (com.google.gson.JsonElement v : values) {
        if (v.isJsonPrimitive()) {
          result.add(v.getAsString());
        }
      }
    }
    return List.copyOf(result);
  }

  private static String text(com.google.gson.JsonObject o, String key) {
    return o != null && o.get(key) != null && o.get(key).isJsonPrimitive()
        ? o.get(key).getAsString()
        : null;
  }

  /**
   * Stops serving a custom resource type and drops its objects, as when its CRD is uninstalled: its
   * discovery and every request for it then answer 404 {@code the server could not find the
   * requested resource}.
   *
   * @param type the resource type
   * @return this server
   * @throws IllegalArgumentException for {@link ResourceType#POD}
   */
  public FakeKubernetesApiServer unregisterResource(ResourceType type) {
    store.unregister(Objects.requireNonNull(type, "type"));
    return this;
  }

  /**
   * Expires every {@code continue} token issued so far and forgets the watch history, as an etcd
   * compaction does: the next page of a list paged across it answers 410 {@code Expired}, with a
   * {@code continue} token in the {@code Status} that goes on over the current state (an
   * inconsistent list), and a watch from a resourceVersion older than the current one answers 200
   * with one {@code ERROR} event, a {@code Status} 410 {@code Expired} {@code too old resource
   * version: X (Y)}, and ends. Open watches go on.
   *
   * @return this server
   */
  public FakeKubernetesApiServer compact() {
    handler.compact();
    return this;
  }

  /**
   * Sets how long, by the server's clock, the {@code continue} tokens of a paged list stay valid
   * (default 5 minutes, the kube-apiserver's default {@code --etcd-compaction-interval}); later
   * pages come from the first page's snapshot until then, and answer 410 {@code Expired} after.
   *
   * @param expiry a positive duration
   * @return this server
   * @throws IllegalArgumentException if not positive
   */
  public FakeKubernetesApiServer continueTokensExpireAfter(Duration expiry) {
    requirePositive(expiry, "continue token expiry");
    handler.continueExpiry(expiry);
    return this;
  }

  /**
   * Sets how long, by the server's clock, changes stay in the watch history (default 5 minutes,
   * like continue tokens): a watch from a resourceVersion older than the oldest change still held
   * answers 200 with one {@code ERROR} event, 410 {@code Expired}, as a real watch cache does for a
   * resourceVersion that has left its window. At most 10,000 changes are kept whatever the window.
   *
   * @param window a positive duration
   * @return this server
   * @throws IllegalArgumentException if not positive
   */
  public FakeKubernetesApiServer watchHistoryExpiresAfter(Duration window) {
    requirePositive(window, "watch history window");
    store.watchHub().window(window);
    return this;
  }

  /**
   * Sends a {@code BOOKMARK} event now on every open watch that asked for them ({@code
   * allowWatchBookmarks=true}), carrying the resourceVersion the watch has reached; the real server
   * sends them about once a minute, which {@link #watchBookmarkInterval(Duration)} sets.
   *
   * @return this server
   */
  public FakeKubernetesApiServer sendWatchBookmarks() {
    store.watchHub().bookmark();
    return this;
  }

  /**
   * Sets how often, in real time, open watches that allow bookmarks get one (default 1 minute, the
   * cacher's {@code bookmarkFrequency}).
   *
   * @param interval a positive duration
   * @return this server
   * @throws IllegalArgumentException if not positive
   */
  public FakeKubernetesApiServer watchBookmarkInterval(Duration interval) {
    requirePositive(interval, "watch bookmark interval");
    watches.bookmarkInterval(interval);
    return this;
  }

  /**
   * Holds back watch events, as a watch cache or a connection lagging behind the store does: open
   * and new watches send the changes made up to now and none after, until {@link
   * #releaseWatchesUpTo(String)} or {@link #resumeWatches()}. Held changes keep their order and are
   * sent on release; lists and gets answer from the store as always, so a client can see a change
   * by a read before its watch tells it. A watch started without a resourceVersion still begins
   * with the current objects. Bookmarks carry the resourceVersion a watch has sent.
   *
   * @return this server
   */
  public FakeKubernetesApiServer pauseWatches() {
    store.watchHub().deliverUpTo(Long.parseLong(store.currentResourceVersion()));
    return this;
  }

  /**
   * Lets paused watches send the held changes up to and including a resourceVersion, and holds back
   * the later ones.
   *
   * @param resourceVersion a resourceVersion this server gave
   * @return this server
   * @throws IllegalArgumentException if it is not a resourceVersion of this server
   */
  public FakeKubernetesApiServer releaseWatchesUpTo(String resourceVersion) {
    long rv;
    try {
      rv = Long.parseLong(resourceVersion);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a resourceVersion: " + resourceVersion, e);
    }
    if (rv < 0) {
      throw new IllegalArgumentException("not a resourceVersion: " + resourceVersion);
    }
    store.watchHub().deliverUpTo(rv);
    return this;
  }

  /**
   * Ends {@link #pauseWatches()}: watches send every held change, in order, and go on as before.
   *
   * @return this server
   */
  public FakeKubernetesApiServer resumeWatches() {
    store.watchHub().deliverUpTo(Long.MAX_VALUE);
    return this;
  }

  /**
   * Returns how many watches are streaming now.
   *
   * @return the number of open watches
   */
  public int openWatches() {
    return store.watchHub().open();
  }

  /**
   * Returns how many connections are open now: accepted by the server and not yet closed by either
   * side. The server closes a connection that stayed idle for the {@linkplain
   * Builder#idleTimeout(Duration) idle timeout}, while a client's pool may still hold it; a test
   * waits for this to drop to 0 to see what its client does with such a stale connection.
   *
   * @return the number of open connections
   */
  public int openConnections() {
    return connections.open();
  }

  /**
   * Closes every connection open now, as a restarting API server, a load balancer or an idle
   * timeout does: a client's pool may still hold them, and its next request on one fails (a watch
   * on one ends). Each close reaches {@link #openConnections()} once the server has seen it, so a
   * test waits for that to drop. kube-apiserver closes a connection idle for 90 seconds; this does
   * it at the moment a test chooses, without an idle timeout that could also close a connection
   * before its first request on a loaded machine.
   *
   * @return how many connections were closed
   */
  public int closeConnections() {
    return connections.closeAll();
  }

  /**
   * Makes namespaces real: from now on only these namespaces and those added with {@link
   * #createNamespace(String)} exist, and creating an object in another one answers 404 {@code
   * namespaces "x" not found} (details kind {@code namespaces}), as the real server's namespace
   * admission does. Reads in a missing namespace still answer as if it were empty. By default (and
   * after {@link #reset()}) every namespace exists.
   *
   * @param existing the namespaces that exist
   * @return this server
   */
  public FakeKubernetesApiServer requireNamespaces(String... existing) {
    store.requireNamespaces(List.of(existing));
    return this;
  }

  /**
   * Adds a namespace; it matters only after {@link #requireNamespaces(String...)}.
   *
   * @param namespace the namespace
   * @return this server
   */
  public FakeKubernetesApiServer createNamespace(String namespace) {
    store.createNamespace(Objects.requireNonNull(namespace, "namespace"));
    return this;
  }

  /**
   * Removes a namespace and, at once, every object and pod log in it (finalizers are not waited
   * for).
   *
   * @param namespace the namespace
   * @return this server
   */
  public FakeKubernetesApiServer deleteNamespace(String namespace) {
    store.deleteNamespace(Objects.requireNonNull(namespace, "namespace"));
    return this;
  }

  /**
   * Returns direct access to the server's objects, bypassing HTTP, faults, RBAC and the journal.
   *
   * @return the store
   */
  public ResourceStore store() {
    return store;
  }

  /**
   * Returns the faults this server injects into matching requests.
   *
   * @return the faults
   */
  public Faults faults() {
    return faults;
  }

  /**
   * Returns the journal of requests that reached this server.
   *
   * @return the journal
   */
  public RequestJournal journal() {
    return journal;
  }

  /**
   * Returns the RBAC rules this server enforces (default: everything allowed).
   *
   * @return the RBAC rules
   */
  public Rbac rbac() {
    return rbac;
  }

  /**
   * Returns the clock that timestamps objects and journal entries.
   *
   * @return the clock
   */
  public Clock clock() {
    return clock;
  }

  /**
   * Releases every {@link Hold} and forgets them, ends every open watch and forgets the watch
   * history, resumes paused watches, and removes every object and pod log, fault, journal entry and
   * RBAC rule, makes every namespace exist again, keeping the registered resource types, the
   * store's listeners and the resourceVersion counter (which never goes back). Windows and
   * intervals go back to their defaults.
   */
  public void reset() {
    holds.releaseAll();
    endWatches();
    handler.compact();
    handler.continueExpiry(Duration.ofMinutes(5));
    store.watchHub().window(Duration.ofMinutes(5));
    store.watchHub().deliverUpTo(Long.MAX_VALUE);
    watches.bookmarkInterval(Duration.ofMinutes(1));
    store.clear();
    faults.clear();
    journal.clear();
    rbac.reset();
  }

  /** Returns a description with the server's URL. */
  @Override
  public String toString() {
    return "FakeKubernetesApiServer[" + (wireMock.isRunning() ? url() : "stopped") + "]";
  }

  /**
   * Releases every {@link Hold}, ends every open watch (each stream ends as when the server shuts
   * down), stops the server and frees its port; calling it again does nothing.
   */
  @Override
  public void close() {
    holds.releaseAll();
    endWatches();
    if (wireMock.isRunning()) {
      int port = wireMock.port();
      wireMock.stop();
      LOG.debug("Fake Kubernetes API server at port {} stopped", port);
    }
  }

  private static void requirePositive(Duration d, String setting) {
    if (d == null || d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(setting + " must be positive, but was " + d);
    }
  }

  private void endWatches() {
    store.watchHub().closeAll();
    try {
      if (!store.watchHub().awaitAllEnded(5_000)) {
        LOG.warn("{} watches did not end within 5 s", store.watchHub().open());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Configures a {@link FakeKubernetesApiServer}.
   *
   * <p>Not thread safe.
   */
  public static final class Builder {
    private Clock clock = Clock.systemUTC();
    private int port;
    private int threads = 24;
    private Duration idleTimeout = DEFAULT_IDLE_TIMEOUT;
    private Duration hangUpCheck = DEFAULT_HANG_UP_CHECK;

    private Builder() {}

    /**
     * Sets the clock for {@code creationTimestamp}, {@code deletionTimestamp} and the journal
     * (default {@link Clock#systemUTC()}); a {@link MutableClock} makes them deterministic.
     *
     * @param clock the clock
     * @return this builder
     */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * Sets the port to listen on (default 0, a free port chosen at start).
     *
     * @param port the port, 0 to 65535
     * @return this builder
     * @throws IllegalArgumentException if the port is out of range
     */
    public Builder port(int port) {
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("port must be between 0 and 65535, but was " + port);
      }
      this.port = port;
      return this;
    }

    /**
     * Sets the number of HTTP worker threads (default 24), which bounds how many requests are
     * served at once, delayed ones included.
     *
     * @param threads the number of threads, at least 8
     * @return this builder
     * @throws IllegalArgumentException if fewer than 8
     */
    public Builder threads(int threads) {
      if (threads < 8) {
        throw new IllegalArgumentException("threads must be at least 8, but was " + threads);
      }
      this.threads = threads;
      return this;
    }

    /**
     * Sets how long a connection may stay idle between requests before the server closes it
     * (default 90 seconds, kube-apiserver's {@code IdleTimeout} in {@code
     * k8s.io/apiserver/pkg/server/secure_serving.go}). A client that keeps idle connections longer,
     * as OkHttp does (5 minutes), later finds some of them closed; a short timeout shows what it
     * does then.
     *
     * @param idleTimeout the idle time, at least 1 millisecond
     * @return this builder
     * @throws IllegalArgumentException if shorter than 1 millisecond
     */
    public Builder idleTimeout(Duration idleTimeout) {
      Objects.requireNonNull(idleTimeout, "idleTimeout");
      if (idleTimeout.toMillis() < 1) {
        throw new IllegalArgumentException(
            "idleTimeout must be at least 1 millisecond, but was " + idleTimeout);
      }
      this.idleTimeout = idleTimeout;
      return this;
    }

    /**
     * Sets how often an open watch that has nothing to send checks whether its client hung up
     * (default 50 milliseconds). kube-apiserver notices at once (the request's context ends in
     * {@code HandleHTTP}); the fake notices only at this check or at its next write, so {@link
     * FakeKubernetesApiServer#openWatches()} counts a watch its client closed for up to this long.
     *
     * @param interval the interval, from 1 millisecond to 1 minute
     * @return this builder
     * @throws IllegalArgumentException if shorter than 1 millisecond or longer than 1 minute
     */
    public Builder hangUpCheck(Duration interval) {
      Objects.requireNonNull(interval, "hangUpCheck");
      if (interval.toMillis() < 1 || interval.compareTo(Duration.ofMinutes(1)) > 0) {
        throw new IllegalArgumentException(
            "hangUpCheck must be between 1 millisecond and 1 minute, but was " + interval);
      }
      this.hangUpCheck = interval;
      return this;
    }

    /**
     * Starts a server with these settings.
     *
     * @return the started server; close it when done
     */
    public FakeKubernetesApiServer build() {
      return new FakeKubernetesApiServer(this);
    }
  }
}
