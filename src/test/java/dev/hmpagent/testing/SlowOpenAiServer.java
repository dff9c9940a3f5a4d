package dev.hmpagent.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * An OpenAI-compatible chat-completions server on a raw socket that streams a reply only as fast as the test releases
 * it, chunk by chunk, and notices when the client hangs up. MockWebServer writes a body on its own schedule; here the
 * test holds the pen. Each main-cycle request takes the next scripted {@link Reply} (waiting for one if none is
 * scripted yet). Step 5's comparison mini-requests are answered at once with "yes, new", as {@link FakeOpenAiServer}
 * does, and never take a scripted reply.
 */
public final class SlowOpenAiServer implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration PATIENCE = Duration.ofSeconds(20);
    private static final String JUDGEMENT = "{\"new_thoughts\": \"yes\", \"novelty\": 0.9, \"new_ideas\": [],"
            + " \"refined_ideas\": [], \"discarded_ideas\": []}";

    private final ServerSocket socket;
    private final BlockingQueue<Reply> script = new LinkedBlockingQueue<>();
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "slow-openai-server");
        t.setDaemon(true);
        return t;
    });
    private volatile boolean closed;
    /** Holds step 5's comparison answers while set ({@link #holdJudgements()}). */
    private volatile CountDownLatch judgeGate;
    private final CountDownLatch judgeAsked = new CountDownLatch(1);

    public SlowOpenAiServer() throws IOException {
        socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        threads.execute(this::acceptLoop);
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + socket.getLocalPort() + "/v1";
    }

    /** From now on a comparison request waits for {@link #releaseJudgements()} before it is answered. */
    public void holdJudgements() {
        judgeGate = new CountDownLatch(1);
    }

    /** Waits until the agent sent a comparison request (the first one). */
    public void awaitJudgement() throws InterruptedException {
        if (!judgeAsked.await(PATIENCE.toSeconds(), TimeUnit.SECONDS)) {
            throw new AssertionError("the fake LLM server received no comparison request in " + PATIENCE.toSeconds() + " s");
        }
    }

    /** Answers the comparison requests held, and every later one at once. */
    public void releaseJudgements() {
        CountDownLatch gate = judgeGate;
        judgeGate = null;
        if (gate != null) gate.countDown();
    }

    /** Scripts the next reply: the test streams it with {@link Reply#send} and {@link Reply#finish}. */
    public Reply nextReply() {
        Reply reply = new Reply();
        script.add(reply);
        return reply;
    }

    /** Scripts the next reply whole: all of {@code text} is streamed as soon as the request comes. */
    public Reply answer(String text) {
        Reply reply = nextReply();
        reply.steps.add(new Step(Reply.ending(text), new CompletableFuture<>(), true));
        return reply;
    }

    /** One scripted reply, streamed as the test says. */
    public static final class Reply {
        private final BlockingQueue<Step> steps = new LinkedBlockingQueue<>();
        private final CountDownLatch asked = new CountDownLatch(1);
        private final CountDownLatch hungUp = new CountDownLatch(1);
        private volatile JsonNode request;
        private volatile boolean finished;

        /** Waits until the agent asked for this reply; the request's JSON body. */
        public JsonNode awaitRequest() throws InterruptedException {
            if (!asked.await(PATIENCE.toSeconds(), TimeUnit.SECONDS)) {
                throw new AssertionError("the fake LLM server received no request in " + PATIENCE.toSeconds() + " s");
            }
            return request;
        }

        /** Streams one content chunk; returns once it is written to the socket (fails if the client hung up). */
        public void send(String text) throws InterruptedException {
            step(new Step(chunk(text), new CompletableFuture<>(), false));
        }

        /**
         * Streams {@code rest} as the last content chunk, then a chunk with finish_reason "stop", one with the usage,
         * and [DONE], and closes the connection.
         */
        public void finish(String rest) throws InterruptedException {
            step(new Step(ending(rest), new CompletableFuture<>(), true));
        }

        /** Whether the client closed the connection before the reply was finished, waiting up to {@code timeout}. */
        public boolean awaitHangUp(Duration timeout) throws InterruptedException {
            return hungUp.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
        }

        private void step(Step step) throws InterruptedException {
            steps.add(step);
            try {
                step.written().get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                throw new AssertionError("the chunk could not be written: " + e.getCause().getMessage(), e.getCause());
            } catch (TimeoutException e) {
                throw new AssertionError("the chunk was not written in " + PATIENCE.toSeconds()
                        + " s (did the agent ask for this reply?)", e);
            }
        }

        private static String ending(String rest) {
            return (rest.isEmpty() ? "" : chunk(rest))
                    + "data: {\"id\":\"slow\",\"object\":\"chat.completion.chunk\",\"model\":\"m\",\"choices\":[{\"index\":0,"
                    + "\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"
                    + "data: {\"id\":\"slow\",\"object\":\"chat.completion.chunk\",\"model\":\"m\",\"choices\":[],"
                    + "\"usage\":{\"prompt_tokens\":100,\"completion_tokens\":20,\"total_tokens\":120}}\n\n"
                    + "data: [DONE]\n\n";
        }

        /** Writes the steps as they are released, until the last one, the client hanging up, or the server closing. */
        private void streamTo(OutputStream out, SlowOpenAiServer server) {
            while (true) {
                Step step;
                try {
                    step = steps.poll(50, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    return;
                }
                if (hungUp.getCount() == 0 || server.closed) {
                    if (step != null) step.written().completeExceptionally(new IOException("the client hung up"));
                    return;
                }
                if (step == null) continue;
                try {
                    if (step.last()) finished = true;   // from here on, a close is the normal end, not a hang-up
                    out.write(step.data().getBytes(StandardCharsets.UTF_8));
                    out.flush();
                    step.written().complete(null);
                } catch (IOException e) {
                    finished = false;
                    hungUp.countDown();
                    step.written().completeExceptionally(e);
                    return;
                }
                if (step.last()) return;
            }
        }

        /** Reads from the client until it closes the connection; a close before the end is a hang-up. */
        private void watch(InputStream in) {
            try {
                while (in.read() != -1) {
                    // HTTP/1.1 clients send nothing more on this connection; anything is ignored
                }
            } catch (IOException e) {
                // a reset, or our own close
            }
            if (!finished) hungUp.countDown();
        }
    }

    private record Step(String data, CompletableFuture<Void> written, boolean last) { }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket s = socket.accept();
                threads.execute(() -> serve(s));
            } catch (IOException e) {
                if (!closed) throw new IllegalStateException(e);
            }
        }
    }

    private void serve(Socket s) {
        try (s) {
            InputStream in = new BufferedInputStream(s.getInputStream());
            OutputStream out = s.getOutputStream();
            String body = readRequest(in);
            if (body == null) return;
            if (body.isEmpty()) {   // a GET (llama.cpp's /props, where the agent asks the context window): not ours
                out.write("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                        .getBytes(StandardCharsets.US_ASCII));
                out.flush();
                return;
            }
            JsonNode request = JSON.readTree(body);
            if (FakeOpenAiServer.isComparisonBody(request)) {
                judgeAsked.countDown();
                CountDownLatch gate = judgeGate;
                // longer than a test waits for a screen: an answer that waits for the judge is not seen in time
                if (gate != null && !gate.await(3 * PATIENCE.toSeconds(), TimeUnit.SECONDS)) return;
                out.write(comparisonAnswer());
                out.flush();
                return;
            }
            Reply reply = nextScripted();
            if (reply == null) return;
            reply.request = request;
            out.write(("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
                    + "Connection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            reply.asked.countDown();
            threads.execute(() -> reply.watch(in));
            reply.streamTo(out, this);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            // the client went away while we read its request: nothing to answer
        }
    }

    private Reply nextScripted() {
        try {
            while (!closed) {
                Reply r = script.poll(50, TimeUnit.MILLISECONDS);
                if (r != null) return r;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return null;
    }

    /** Reads one request's head and its Content-Length body; null at end of input. */
    private static String readRequest(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b == -1) return null;
            head.write(b);
            matched = (b == "\r\n\r\n".charAt(matched)) ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        int length = 0;
        for (String line : head.toString(StandardCharsets.US_ASCII).split("\r\n")) {
            String lower = line.toLowerCase(Locale.ROOT);
            if (lower.startsWith("content-length:")) length = Integer.parseInt(line.substring(15).strip());
            if (lower.startsWith("transfer-encoding:")) throw new IOException("chunked request bodies are not supported");
        }
        byte[] body = in.readNBytes(length);
        return new String(body, StandardCharsets.UTF_8);
    }

    private static byte[] comparisonAnswer() throws IOException {
        String body = "{\"id\":\"c\",\"model\":\"m\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
                + "\"content\":" + JSON.writeValueAsString(JUDGEMENT) + "},\"finish_reason\":\"stop\"}],"
                + "\"usage\":{\"prompt_tokens\":50,\"completion_tokens\":20}}";
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        String head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + bytes.length
                + "\r\nConnection: close\r\n\r\n";
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        all.write(head.getBytes(StandardCharsets.US_ASCII));
        all.write(bytes);
        return all.toByteArray();
    }

    private static String chunk(String piece) {
        try {
            return "data: {\"id\":\"slow\",\"object\":\"chat.completion.chunk\",\"model\":\"m\",\"choices\":[{\"index\":0,"
                    + "\"delta\":{\"content\":" + JSON.writeValueAsString(piece) + "},\"finish_reason\":null}]}\n\n";
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        socket.close();
        threads.shutdownNow();
    }
}
