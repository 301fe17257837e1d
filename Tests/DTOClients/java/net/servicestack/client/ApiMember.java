package net.servicestack.client;

import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;

@Retention(RetentionPolicy.RUNTIME)
public @interface ApiMember {
    String Name() default "";
    String Description() default "";
    String DataType() default "";
    String Format() default "";
    String ParameterType() default "";
    String Verb() default "";
    String Route() default "";
    boolean IsRequired() default false;
    boolean AllowMultiple() default false;
    boolean ExcludeInSchema() default false;
}
