import java.lang.reflect.Field;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

/**
 * DynamoDB Local bound to 127.0.0.1 only. Its own launcher binds every interface and has no option
 * to choose one, which would serve every local project's data to the developer's whole network.
 * Takes DynamoDB Local's own arguments; run in Java's source-file mode, so nothing is compiled ahead.
 */
public class DynamoDbLoopback {
  public static void main(String[] args) throws Exception {
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    Server server = (Server) field.get(proxy);
    for (Connector connector : server.getConnectors()) ((ServerConnector) connector).setHost("127.0.0.1");
    proxy.start();
    proxy.join();
  }
}
