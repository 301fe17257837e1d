import com.google.gson.annotations.SerializedName;
import java.lang.reflect.Type;

/**
 * Uses the three apps' generated Java DTOs as ServiceStack's Java client does: a request built
 * with setters that return it, the response type it names (a class, or a TypeToken's generic
 * type), and the JSON names Gson reads from renamed fields. DTOClientTests compiles it with
 * javac against Tests/DTOClients/java and compares what it prints.
 */
public class Consumer {
    public static void main(String[] args) throws Exception {
        test.dtos.Hello hello = new test.dtos.Hello().setName("World");
        System.out.println("Hello " + hello.getName() + " returns " + name(hello.getResponseType()));
        System.out.println("QueryItems returns " + name(new test.dtos.QueryItems().getResponseType()));
        System.out.println("AllTypes.Int is " + jsonName(test.dtos.AllTypes.class, "Int"));
        techstacks.dtos.GetTechnology technology = new techstacks.dtos.GetTechnology().setSlug("servicestack");
        System.out.println("GetTechnology " + technology.getSlug() + " returns " + name(technology.getResponseType()));
        System.out.println("FindTechnologies returns " + name(new techstacks.dtos.FindTechnologies().getResponseType()));
        ai.dtos.OpenAiChatCompletion chat = new ai.dtos.OpenAiChatCompletion();
        chat.setModel("gpt-4");
        System.out.println("OpenAiChatCompletion " + chat.getModel() + " returns " + name(chat.getResponseType()));
        System.out.println("OpenAiChat.maxTokens is " + jsonName(ai.dtos.OpenAiChat.class, "maxTokens"));
    }

    /** A type as the program names it, without the apps' packages. */
    static String name(Object type) {
        String text = type instanceof Class ? ((Class<?>) type).getName() : ((Type) type).getTypeName();
        return text.replaceAll("[a-z]+\\.dtos\\$", "");
    }

    static String jsonName(Class<?> type, String field) throws NoSuchFieldException {
        SerializedName name = type.getField(field).getAnnotation(SerializedName.class);
        return name == null ? field : name.value();
    }
}
