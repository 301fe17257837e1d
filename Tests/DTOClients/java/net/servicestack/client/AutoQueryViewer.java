package net.servicestack.client;

import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;

@Retention(RetentionPolicy.RUNTIME)
public @interface AutoQueryViewer {
    String Title() default "";
    String Description() default "";
    String IconUrl() default "";
    String BrandUrl() default "";
    String BrandImageUrl() default "";
    String TextColor() default "";
    String LinkColor() default "";
    String BackgroundColor() default "";
    String BackgroundImageUrl() default "";
    String DefaultSearchField() default "";
    String DefaultSearchType() default "";
    String DefaultSearchText() default "";
    String DefaultFields() default "";
}
